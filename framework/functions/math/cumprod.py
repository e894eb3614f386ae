"""Cumulative products, and the exclusive products that ``cumprod`` and ``prod`` differentiate
with.

Along a sequence ``x_0, ..., x_{n-1}`` (an axis, or several axes taken in C order), the
*exclusive* cumulative product is ``L_i = x_0 * ... * x_{i-1}`` (``L_0 = 1``) and, read from the
end, ``R_i = x_{i+1} * ... * x_{n-1}``. They never divide, so they are exact with zeros in the
input. Their derivatives are products of the same kind, weighted by the incoming gradient: the
scan ``s_i = sum_{j<i} b_j * a_{j+1} * ... * a_{i-1}`` (:class:`ProductScan`), whose own
derivatives are scans in the opposite direction; so every order of derivative is available.
"""

from __future__ import annotations

import math

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.utils import type_check
from framework.variable import Variable


def _to_sequence(x, axes: tuple[int, ...]):
    """Moves ``axes`` to the front and merges them: returns the array of shape ``(n, ...)`` and
    the layout that :func:`_from_sequence` restores."""
    order = axes + tuple(a for a in range(x.ndim) if a not in axes)
    moved = x.transpose(order)
    n = math.prod(moved.shape[:len(axes)])
    return moved.reshape((n,) + moved.shape[len(axes):]), (order, moved.shape)


def _from_sequence(seq, layout):
    order, moved_shape = layout
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return seq.reshape(moved_shape).transpose(inverse)


class ExclusiveCumprod(FunctionNode):
    """``L`` (or ``R`` when ``reverse``) along the sequence made of ``axes``."""

    def __init__(self, axes: tuple[int, ...], reverse: bool = False):
        self.axes = axes
        self.reverse = reverse

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        seq, layout = _to_sequence(x, self.axes)
        if self.reverse:
            seq = seq[::-1]
        out = xp.concatenate([xp.ones_like(seq[:1]), xp.cumprod(seq[:-1], axis=0)])
        if self.reverse:
            out = out[::-1]
        return _from_sequence(out, layout),

    def backward(self, indexes, grad_outputs):
        # dL_i/dx_m = L_m * x_{m+1} * ... * x_{i-1} for m < i.
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        scan = ProductScan(self.axes, not self.reverse).apply((x, grad_outputs[0]))[0]
        return y * scan,


class ProductScan(FunctionNode):
    """``s_i = sum_{j<i} b_j * a_{j+1} * ... * a_{i-1}`` along the sequence made of ``axes``
    (``j > i`` and the reverse order when ``reverse``); inputs ``(a, b)`` of one shape."""

    def __init__(self, axes: tuple[int, ...], reverse: bool = False):
        self.axes = axes
        self.reverse = reverse

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        a, b = inputs
        xp = backend.get_array_module(a)
        a_seq, layout = _to_sequence(a, self.axes)
        b_seq, _ = _to_sequence(b, self.axes)
        if self.reverse:
            a_seq, b_seq = a_seq[::-1], b_seq[::-1]
        s = xp.zeros_like(b_seq)
        for i in range(1, len(s)):
            s[i] = a_seq[i - 1] * s[i - 1] + b_seq[i - 1]
        if self.reverse:
            s = s[::-1]
        return _from_sequence(s, layout),

    def backward(self, indexes, grad_outputs):
        # ds_i/db_j and ds_i/da_m (divided by s_m) are the products of a between the two
        # indexes: both gradients are a scan of the output gradient in the other direction.
        a, = self.get_retained_inputs()
        s, = self.get_retained_outputs()
        scan = ProductScan(self.axes, not self.reverse).apply((a, grad_outputs[0]))[0]
        ret = []
        if 0 in indexes:
            ret.append(s * scan)
        if 1 in indexes:
            ret.append(scan)
        return tuple(ret)


def exclusive_cumprods(x, axes: tuple[int, ...]) -> tuple[Variable, Variable]:
    """The products ``L`` and ``R`` of the other elements before and after each element, along
    the sequence made of ``axes`` (differentiable; exact with zeros)."""
    left = ExclusiveCumprod(axes).apply((x,))[0]
    right = ExclusiveCumprod(axes, reverse=True).apply((x,))[0]
    return left, right


def cumprod(x, axis=None) -> Variable:
    """Cumulative product of the elements along an axis.

    The gradient is computed without division, so it is exact where the input has zeros.

    Args:
        x (Variable or array): the input, a float array.
        axis (None or int): the axis; None for the product along the flattened input.

    Returns:
        Variable: of x's dtype and shape (1-dimensional, of x's size, when ``axis`` is None).
    """
    from framework.functions.math.basic_math import mul
    x_array = float_input('cumprod', 'x', x)
    if axis is None:
        from framework.functions.array.reshape import reshape
        x = reshape(x, (-1,))
        axis = 0
    else:
        axis = type_check.normalize_axis('cumprod', axis, x_array.ndim)
    return mul(ExclusiveCumprod((axis,)).apply((x,))[0], x)
