"""The natural logarithm of one plus the input."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.math._elementwise import UnaryUfunc
from framework.variable import Variable


class Log1p(UnaryUfunc):

    ufunc = 'log1p'
    retain = 'input'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x + 1.0),


def log1p(x) -> Variable:
    """Element-wise natural logarithm of one plus the input, ``log(1 + x)``.

    Accurate for ``x`` close to 0, where ``log(1 + x)`` would lose precision.

    Args:
        x (Variable or array): a floating-point input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('log1p', 'x', x)
    return Log1p().apply((x,))[0]
