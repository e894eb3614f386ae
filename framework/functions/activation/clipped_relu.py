"""Clipped rectified linear unit: ``clipped_relu`` and ``relu6``."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import real_scalar
from framework.variable import Variable


class ClippedReLU(FunctionNode):
    """:math:`\\min(\\max(0, x), z)`; its gradient is 0 at both kinks, as in Chainer."""

    def __init__(self, z: float):
        self.cap = z

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return xp.minimum(xp.maximum(x, x.dtype.type(0)), x.dtype.type(self.cap)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        inside = (x.array > 0) & (x.array < self.cap)
        return grad_outputs[0] * inside.astype(x.dtype),


def clipped_relu(x, z: float = 20.0) -> Variable:
    """Clipped Rectifier Unit function, :math:`f(x) = \\min(\\max(0, x), z)`.

    The gradient is 0 at ``x == 0`` and at ``x == z``.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        z (float): the clipping value, positive.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('clipped_relu', 'x', x)
    z = real_scalar('clipped_relu', 'z', z)
    if not z > 0:
        raise ValueError(f'clipped_relu: z must be positive, but got {z}')
    return ClippedReLU(z).apply((x,))[0]


def relu6(x) -> Variable:
    """Rectifier Unit function clipped at 6, :math:`f(x) = \\min(\\max(0, x), 6)`.

    The gradient is 0 at ``x == 0`` and at ``x == 6``.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('relu6', 'x', x)
    return ClippedReLU(6.0).apply((x,))[0]
