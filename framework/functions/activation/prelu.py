"""Parametric rectified linear unit."""

from __future__ import annotations

import math

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import (
    channel_param,
    channel_reduce_axes,
    channel_shape,
)
from framework.functions.array.reshape import reshape
from framework.functions.math.sum import sum as _sum
from framework.variable import Variable


def _slope_runs(W):
    """The runs of consecutive slopes (in ``W``'s row-major order) on the same side of 1.

    Returns:
        list of tuple: ``(begin, end, steep)``, ``steep`` True for slopes above 1; None when a
        slope is 0 or not finite (there ``x * W`` is nan for an infinite ``x``).
    """
    slopes = backend.to_cpu(W).ravel()
    if not (numpy.isfinite(slopes).all() and slopes.all()):
        return None
    steep = slopes > 1
    bounds = [0, *(numpy.flatnonzero(steep[1:] != steep[:-1]) + 1).tolist(), len(slopes)]
    return [(begin, end, bool(steep[begin])) for begin, end in zip(bounds[:-1], bounds[1:])]


class PReLU(FunctionNode):
    """``x`` where ``x >= 0``, ``W * x`` elsewhere (the gradient at 0 is that of ``x``)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs
        xp = backend.get_array_module(x)
        W_b = W.reshape(channel_shape(W.shape, x.ndim))
        runs = _slope_runs(W)
        if runs is None:
            # min(x, 0) * W + max(x, 0): three plain passes, 3-4x faster than a where()
            # that broadcasts W.
            y = xp.minimum(x, 0)
            y *= W_b
            y += xp.maximum(x, 0)
            return y,
        # max(x, W * x) for a slope below 1 (of either sign), min(x, W * x) above 1: two
        # passes, the second over a run of channels at a time.
        y = xp.empty(x.shape, x.dtype)
        xp.multiply(x, W_b, out=y)
        by_slope = (x.shape[0], W.size, math.prod(x.shape[1 + W.ndim:]))
        x_r, y_r = x.reshape(by_slope), y.reshape(by_slope)
        for begin, end, steep in runs:
            out = y_r[:, begin:end]
            (xp.minimum if steep else xp.maximum)(x_r[:, begin:end], out, out=out)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        negative = (x.array < 0).astype(x.dtype)
        ret = []
        if 0 in indexes:
            W_b = reshape(W, channel_shape(W.shape, x.ndim))
            ret.append(gy * (W_b * negative + (1 - negative)))
        if 1 in indexes:
            ret.append(_sum(gy * x * negative, axis=channel_reduce_axes(W.ndim, x.ndim)))
        return tuple(ret)


def prelu(x, W) -> Variable:
    """Parametric ReLU function.

    .. math:: f(x_i) = x_i \\ (x_i \\ge 0), \\quad W_i x_i \\ (x_i < 0).

    ``W`` is shared along the minibatch axis and the trailing axes: for ``W`` of shape
    ``(2, 3)``, ``x`` has shape ``(B, 2, 3, S_1, ..., S_N)``.

    Args:
        x (Variable or array): a float array whose first axis is the minibatch.
        W (Variable or array): the slopes, of the dtype of ``x`` and of shape
            ``x.shape[1:1 + W.ndim]``.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('prelu', 'x', x)
    channel_param('prelu', x, W, 'W')
    return PReLU().apply((x, W))[0]
