"""The square."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.math._elementwise import UnaryUfunc
from framework.variable import Variable


class Square(UnaryUfunc):

    ufunc = 'square'
    retain = 'input'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * 2.0 * x,


def square(x) -> Variable:
    """Element-wise square, ``x * x``.

    Args:
        x (Variable or array): a floating-point input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('square', 'x', x)
    return Square().apply((x,))[0]
