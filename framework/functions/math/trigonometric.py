"""Trigonometric functions: sin, cos, tan (arguments in radians)."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.math._elementwise import UnaryUfunc
from framework.functions.math.square import square
from framework.variable import Variable


class Sin(UnaryUfunc):

    ufunc = 'sin'
    retain = 'input'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


class Cos(UnaryUfunc):

    ufunc = 'cos'
    retain = 'input'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


class Tan(UnaryUfunc):

    ufunc = 'tan'
    retain = 'input'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / square(cos(x)),


def sin(x) -> Variable:
    """Element-wise sine.

    Args:
        x (Variable or array): a floating-point input of any shape, in radians.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('sin', 'x', x)
    return Sin().apply((x,))[0]


def cos(x) -> Variable:
    """Element-wise cosine.

    Args:
        x (Variable or array): a floating-point input of any shape, in radians.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('cos', 'x', x)
    return Cos().apply((x,))[0]


def tan(x) -> Variable:
    """Element-wise tangent.

    Args:
        x (Variable or array): a floating-point input of any shape, in radians.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('tan', 'x', x)
    return Tan().apply((x,))[0]
