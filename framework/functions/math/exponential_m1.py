"""The exponential minus one."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.math._elementwise import UnaryUfunc
from framework.variable import Variable


class Expm1(UnaryUfunc):

    ufunc = 'expm1'
    retain = 'output'

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (y + 1.0),


def expm1(x) -> Variable:
    """Element-wise exponential minus one, ``exp(x) - 1``.

    Accurate for ``x`` close to 0, where ``exp(x) - 1`` would lose precision.

    Args:
        x (Variable or array): a floating-point input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('expm1', 'x', x)
    return Expm1().apply((x,))[0]
