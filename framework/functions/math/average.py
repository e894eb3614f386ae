"""Averages: ``average`` (optionally weighted) over axes, and its alias ``mean``."""

from __future__ import annotations

import math

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math._reduction import broadcast_over_axes, normalize_axis_argument
from framework.variable import Variable


class Mean(FunctionNode):
    """Unweighted mean over ``axes`` (None for all)."""

    def __init__(self, axes: tuple[int, ...] | None, keepdims: bool):
        self.axes = axes
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        return x.mean(axis=self.axes, keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self.inputs[0].shape
        axes = range(len(shape)) if self.axes is None else self.axes
        count = math.prod(shape[a] for a in axes)
        return broadcast_over_axes(gy * (1.0 / max(count, 1)), shape, self.axes),


def average(x, axis=None, weights=None, keepdims: bool = False) -> Variable:
    """Weighted average of the elements over the given axes.

    Args:
        x (Variable or array): the input, a float array of shape ``(s_1, ..., s_n)``.
        axis (None, int or tuple of int): the axes to average over; None for all. With
            ``weights``, at most one axis.
        weights (None, Variable or array): the weights, of x's dtype; None for equal weights.
            With ``axis`` None they have the shape of ``x``; with one axis, the shape
            ``(x.shape[axis],)``. Gradients flow into them too.
        keepdims (bool): keep the averaged axes as axes of length 1.

    Returns:
        Variable: the averages, of x's dtype; the averaged axes are removed (or of length 1).
    """
    x_array = float_input('average', 'x', x)
    axes = normalize_axis_argument('average', axis, x_array.ndim)
    if weights is None:
        return Mean(axes, keepdims).apply((x,))[0]

    from framework.functions.array.broadcast import broadcast_to
    from framework.functions.array.reshape import reshape
    from framework.functions.math.basic_math import div, mul
    from framework.functions.math.sum import sum as sum_

    w_array = float_input('average', 'weights', weights)
    if w_array.dtype != x_array.dtype:
        raise TypeError(f'average: weights must have the dtype of x ({x_array.dtype}), '
                        f'but got dtype {w_array.dtype}')
    if axes is None:
        w_shape = x_array.shape
    elif len(axes) == 1:
        w_shape = (x_array.shape[axes[0]],)
    else:
        raise ValueError(f'average: with weights, axis must be None or a single axis, '
                         f'but got {axis}')
    if w_array.shape != w_shape:
        raise ValueError(f'average: weights must have shape {w_shape} for x of shape '
                         f'{x_array.shape} and axis {axis}, but got shape {w_array.shape}')
    divider = sum_(weights)
    if axes is not None:
        weights = broadcast_to(reshape(weights, [
            s if i in axes else 1 for i, s in enumerate(x_array.shape)]), x_array.shape)
    x_sum = sum_(mul(x, weights), axis=axes, keepdims=keepdims)
    return div(x_sum, broadcast_to(divider, x_sum.shape))


#: Chainer's alias of :func:`average`: ``mean(x, axis=None, weights=None, keepdims=False)``.
mean = average
