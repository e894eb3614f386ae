"""Square root and its reciprocal."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.math._elementwise import UnaryUfunc
from framework.variable import Variable


class Sqrt(UnaryUfunc):

    ufunc = 'sqrt'
    retain = 'output'

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2.0),


def sqrt(x) -> Variable:
    """Element-wise square root.

    Negative elements give NaN, as in NumPy; at 0 the value is 0 and the gradient is infinite.

    Args:
        x (Variable or array): a floating-point input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('sqrt', 'x', x)
    return Sqrt().apply((x,))[0]


def rsqrt(x) -> Variable:
    """Element-wise reciprocal of the square root, ``1 / sqrt(x)``.

    At 0 the value is infinite, and negative elements give NaN.

    Args:
        x (Variable or array): a floating-point input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('rsqrt', 'x', x)
    return 1.0 / sqrt(x)
