"""Leaky rectified linear unit."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import real_scalar
from framework.variable import Variable


class LeakyReLU(FunctionNode):
    """``x`` where ``x > 0``, ``slope * x`` elsewhere; the gradient at 0 is ``slope``."""

    def __init__(self, slope: float):
        self.slope = slope

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        # With a non-negative slope the output has the sign of the input, so the output is
        # kept for backward (as Chainer does) and the input may be freed.
        if self.slope >= 0:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        slope = x.dtype.type(self.slope)
        if slope <= 0:
            return xp.where(x > 0, x, x * slope),
        # max(x, slope * x) for a positive slope up to 1, min() above: two passes instead of
        # where()'s three, the same values (nan and infinities included).
        y = xp.empty_like(x)
        xp.multiply(x, slope, out=y)
        return (xp.maximum if slope <= 1 else xp.minimum)(x, y, out=y),

    def backward(self, indexes, grad_outputs):
        if self.slope >= 0:
            cond, = self.get_retained_outputs()
        else:
            cond, = self.get_retained_inputs()
        xp = backend.get_array_module(cond)
        dtype = cond.dtype
        coef = xp.where(cond.array > 0, dtype.type(1), dtype.type(self.slope))
        return grad_outputs[0] * coef,


def leaky_relu(x, slope: float = 0.2) -> Variable:
    """Leaky Rectified Linear Unit function.

    .. math:: f(x) = x \\ (x > 0), \\quad a x \\ (x \\le 0),

    where :math:`a` is ``slope``. The gradient at ``x == 0`` is ``slope``, as in Chainer.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        slope (float): the slope :math:`a` of the negative part.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('leaky_relu', 'x', x)
    slope = real_scalar('leaky_relu', 'slope', slope)
    return LeakyReLU(slope).apply((x,))[0]
