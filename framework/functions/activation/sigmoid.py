"""Logistic sigmoid."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


def sigmoid_array(x):
    """The logistic sigmoid of an array, computed as ``tanh(x / 2) / 2 + 1 / 2``."""
    xp = backend.get_array_module(x)
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


class Sigmoid(FunctionNode):

    def forward(self, inputs):
        self.retain_outputs((0,))
        return sigmoid_array(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(FunctionNode):
    """The gradient of the sigmoid from its output: ``(y, gy) -> gy * y * (1 - y)``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return gy * y * (y.dtype.type(1) - y),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * (1 - 2 * y))
        if 1 in indexes:
            ret.append(ggx * y * (1 - y))
        return tuple(ret)


def sigmoid(x) -> Variable:
    """Element-wise logistic sigmoid function, :math:`f(x) = (1 + \\exp(-x))^{-1}`.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.

    Returns:
        Variable: of the shape and dtype of ``x``, with values in :math:`[0, 1]`.
    """
    float_input('sigmoid', 'x', x)
    return Sigmoid().apply((x,))[0]
