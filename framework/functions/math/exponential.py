"""Exponential and logarithms: exp, log, log2, log10."""

from __future__ import annotations

import math

from framework import backend
from framework.function_node import FunctionNode
from framework.utils import type_check
from framework.variable import Variable, as_array


def _check_float(fname, x):
    type_check.expect_dtype_kind(fname, 'x', as_array(x), 'f')


class Exp(FunctionNode):

    def forward(self, inputs):
        self.retain_outputs((0,))
        xp = backend.get_array_module(*inputs)
        return xp.exp(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class Log(FunctionNode):
    """Logarithm in a base given by ``scale = 1 / ln(base)`` (1 for the natural one)."""

    def __init__(self, ufunc_name: str, scale: float):
        self.ufunc_name = ufunc_name
        self.scale = scale

    @property
    def label(self):
        return self.ufunc_name.capitalize()

    def forward(self, inputs):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*inputs)
        return getattr(xp, self.ufunc_name)(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.scale == 1:
            return gy / x,
        return gy * self.scale / x,


def exp(x) -> Variable:
    """Element-wise exponential ``e ** x`` of a floating-point input."""
    _check_float('exp', x)
    return Exp().apply((x,))[0]


def log(x) -> Variable:
    """Element-wise natural logarithm of a floating-point input."""
    _check_float('log', x)
    return Log('log', 1.0).apply((x,))[0]


def log2(x) -> Variable:
    """Element-wise base-2 logarithm of a floating-point input."""
    _check_float('log2', x)
    return Log('log2', 1.0 / math.log(2.0)).apply((x,))[0]


def log10(x) -> Variable:
    """Element-wise base-10 logarithm of a floating-point input."""
    _check_float('log10', x)
    return Log('log10', 1.0 / math.log(10.0)).apply((x,))[0]
