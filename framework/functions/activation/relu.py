"""Rectified linear unit."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class ReLU(FunctionNode):
    """Rectified linear unit; its gradient at 0 is 0, as in Chainer."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return xp.maximum(x, x.dtype.type(0)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return ReLUGrad(y.array > 0).apply(grad_outputs)


class ReLUGrad(FunctionNode):
    """``gy -> gy * mask``: the gradient of :class:`ReLU` for the mask ``y > 0`` (a boolean
    array), one pass over ``gy``; linear, so its gradient is itself."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        gy, = inputs
        return gy * self.mask,

    def backward(self, indexes, grad_outputs):
        return ReLUGrad(self.mask).apply(grad_outputs)


def relu(x) -> Variable:
    """Rectified Linear Unit function, :math:`f(x) = \\max(0, x)`.

    The gradient at ``x == 0`` is 0.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('relu', 'x', x)
    return ReLU().apply((x,))[0]
