"""Log-sum-exp over axes, computed without overflow."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math._reduction import broadcast_over_axes, normalize_axis_argument
from framework.variable import Variable


class LogSumExp(FunctionNode):

    def __init__(self, axes: tuple[int, ...] | None, keepdims: bool):
        self.axes = axes
        self.keepdims = keepdims

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        m = x.max(axis=self.axes, keepdims=True)
        # Slices that are all -inf (or hold +inf) are shifted by 0, so they give -inf (+inf)
        # rather than NaN.
        m = xp.where(xp.isfinite(m), m, xp.zeros_like(m))
        y = xp.log(xp.exp(x - m).sum(axis=self.axes, keepdims=True)) + m
        return y if self.keepdims else y.squeeze(axis=self.axes),

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        y = broadcast_over_axes(y, x.shape, self.axes)
        return broadcast_over_axes(gy, x.shape, self.axes) * exp(x - y),


def logsumexp(x, axis=None, keepdims: bool = False) -> Variable:
    """Logarithm of the sum of the exponentials of the elements over the given axes.

    Computes ``y = log(sum(exp(x)))`` as ``m + log(sum(exp(x - m)))`` with ``m`` the maximum,
    so that it neither overflows nor underflows; slices that are all ``-inf`` give ``-inf``.

    Args:
        x (Variable or array): the input, a float array.
        axis (None, int or tuple of int): the axes to reduce; None for all.
        keepdims (bool): keep the reduced axes as axes of length 1 (an extension: Chainer's
            ``logsumexp`` has no such argument).

    Returns:
        Variable: of x's dtype; its gradient is ``gy * exp(x - y)`` (the softmax).
    """
    x_array = float_input('logsumexp', 'x', x)
    axes = normalize_axis_argument('logsumexp', axis, x_array.ndim)
    return LogSumExp(axes, keepdims).apply((x,))[0]
