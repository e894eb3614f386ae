"""Hyperbolic tangent."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class Tanh(FunctionNode):

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self.retain_outputs((0,))
        return xp.tanh(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(FunctionNode):
    """The gradient of tanh from its output: ``(y, gy) -> gy * (1 - y * y)``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return gy * (y.dtype.type(1) - y * y),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        y_ggx = y * ggx
        ret = []
        if 0 in indexes:
            ret.append(-2 * gy * y_ggx)
        if 1 in indexes:
            ret.append(ggx - y * y_ggx)
        return tuple(ret)


def tanh(x) -> Variable:
    """Element-wise hyperbolic tangent function, :math:`f(x) = \\tanh(x)`.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('tanh', 'x', x)
    return Tanh().apply((x,))[0]
