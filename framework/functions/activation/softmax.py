"""Softmax along an axis."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math.sum import sum as _sum
from framework.utils import type_check
from framework.variable import Variable


class Softmax(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = xp.exp(x - x.max(axis=self.axis, keepdims=True))
        y /= y.sum(axis=self.axis, keepdims=True)
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class SoftmaxGrad(FunctionNode):
    """The gradient of softmax from its output: ``(y, gy) -> y * gy - y * sum(y * gy)``."""

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        gx = y * gy
        gx -= y * gx.sum(axis=self.axis, keepdims=True)
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ga = ggx - _sum(ggx * y, axis=self.axis, keepdims=True)
        ret = []
        if 0 in indexes:
            ret.append(ga * gy - ggx * _sum(y * gy, axis=self.axis, keepdims=True))
        if 1 in indexes:
            ret.append(ga * y)
        return tuple(ret)


def softmax(x, axis: int = 1) -> Variable:
    """Softmax function along an axis.

    For each slice :math:`c` of ``x`` along ``axis`` it computes
    :math:`f(c) = \\exp(c) / \\sum_d \\exp(c_d)`.

    Args:
        x (Variable or array): a float array with at least one axis.
        axis (int): the axis along which the softmax is computed; negative values count from
            the end.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    x_array = float_input('softmax', 'x', x)
    axis = type_check.normalize_axis('softmax', axis, x_array.ndim)
    return Softmax(axis).apply((x,))[0]
