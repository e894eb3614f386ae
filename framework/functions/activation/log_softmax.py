"""Logarithm of the softmax along an axis."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math.exponential import exp
from framework.functions.math.sum import sum as _sum
from framework.utils import type_check
from framework.variable import Variable


class LogSoftmax(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        m = x.max(axis=self.axis, keepdims=True)
        log_z = m + xp.log(xp.exp(x - m).sum(axis=self.axis, keepdims=True))
        self.retain_outputs((0,))
        return x - log_z,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return LogSoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class LogSoftmaxGrad(FunctionNode):
    """The gradient of log-softmax from its output: ``(y, gy) -> gy - exp(y) * sum(gy)``."""

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        xp = backend.get_array_module(y)
        return gy - xp.exp(y) * gy.sum(axis=self.axis, keepdims=True),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        exp_y = exp(y)
        ret = []
        if 0 in indexes:
            ret.append(-ggx * exp_y * _sum(gy, axis=self.axis, keepdims=True))
        if 1 in indexes:
            ret.append(ggx - _sum(ggx * exp_y, axis=self.axis, keepdims=True))
        return tuple(ret)


def log_softmax(x, axis: int = 1) -> Variable:
    """Logarithm of the softmax along an axis.

    For each slice :math:`c` of ``x`` along ``axis`` it computes
    :math:`\\log f(c) = c - \\log \\sum_d \\exp(c_d)`. It equals ``log(softmax(x))`` but does
    not underflow where the softmax is tiny.

    Args:
        x (Variable or array): a float array with at least one axis.
        axis (int): the axis along which the softmax is computed; negative values count from
            the end.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    x_array = float_input('log_softmax', 'x', x)
    axis = type_check.normalize_axis('log_softmax', axis, x_array.ndim)
    return LogSoftmax(axis).apply((x,))[0]
