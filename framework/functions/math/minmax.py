"""Extrema over axes: ``max`` and ``min`` (differentiable), ``argmax`` and ``argmin`` (not)."""

from __future__ import annotations

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math._reduction import (
    broadcast_over_axes,
    kept_shape,
    normalize_axis_argument,
)
from framework.utils import type_check
from framework.variable import Variable


class Selector(FunctionNode):
    """The maximum or minimum over ``axes``; ``reduction`` names the array function."""

    def __init__(self, reduction: str, axes: tuple[int, ...] | None, keepdims: bool):
        self.reduction = reduction
        self.axes = axes
        self.keepdims = keepdims

    @property
    def label(self):
        return 'Max' if self.reduction == 'amax' else 'Min'

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return getattr(xp, self.reduction)(x, axis=self.axes, keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.basic_math import mul
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        selected = x.array == y.array.reshape(kept_shape(x.shape, self.axes))
        gx = broadcast_over_axes(grad_outputs[0], x.shape, self.axes)
        return mul(gx, selected.astype(x.dtype)),


class IndexSelector(FunctionNode):
    """The int32 index of the maximum or minimum along ``axis`` (None: of the flattened
    input); ``reduction`` names the array function."""

    def __init__(self, reduction: str, axis: int | None):
        self.reduction = reduction
        self.axis = axis

    @property
    def label(self):
        return 'ArgMax' if self.reduction == 'argmax' else 'ArgMin'

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.asarray(getattr(xp, self.reduction)(x, axis=self.axis)).astype(numpy.int32),

    def backward(self, indexes, grad_outputs):
        return None,


def _select(fname, reduction, x, axis, keepdims):
    x_array = float_input(fname, 'x', x)
    axes = normalize_axis_argument(fname, axis, x_array.ndim)
    return Selector(reduction, axes, keepdims).apply((x,))[0]


def _select_index(fname, reduction, x, axis):
    x_array = float_input(fname, 'x', x)
    if axis is not None:
        axis = type_check.normalize_axis(fname, axis, x_array.ndim)
    return IndexSelector(reduction, axis).apply((x,))[0]


def max(x, axis=None, keepdims: bool = False) -> Variable:
    """Maximum of the elements over the given axes.

    The gradient flows to every element equal to its maximum: on ties, each of the tied
    elements receives the whole output gradient (as in Chainer).

    Args:
        x (Variable or array): the input, a float array.
        axis (None, int or tuple of int): the axes to reduce; None for all.
        keepdims (bool): keep the reduced axes as axes of length 1.

    Returns:
        Variable: the maxima, of x's dtype.
    """
    return _select('max', 'amax', x, axis, keepdims)


def min(x, axis=None, keepdims: bool = False) -> Variable:
    """Minimum of the elements over the given axes.

    The gradient flows to every element equal to its minimum: on ties, each of the tied
    elements receives the whole output gradient (as in Chainer).

    Args:
        x (Variable or array): the input, a float array.
        axis (None, int or tuple of int): the axes to reduce; None for all.
        keepdims (bool): keep the reduced axes as axes of length 1.

    Returns:
        Variable: the minima, of x's dtype.
    """
    return _select('min', 'amin', x, axis, keepdims)


def argmax(x, axis=None) -> Variable:
    """Index of the maximum along an axis (the first one on ties); not differentiable.

    Args:
        x (Variable or array): the input, a float array.
        axis (None or int): the axis; None for the index into the flattened input.

    Returns:
        Variable: int32 indexes, of x's shape without ``axis`` (0-dimensional for None).
    """
    return _select_index('argmax', 'argmax', x, axis)


def argmin(x, axis=None) -> Variable:
    """Index of the minimum along an axis (the first one on ties); not differentiable.

    Args:
        x (Variable or array): the input, a float array.
        axis (None or int): the axis; None for the index into the flattened input.

    Returns:
        Variable: int32 indexes, of x's shape without ``axis`` (0-dimensional for None).
    """
    return _select_index('argmin', 'argmin', x, axis)
