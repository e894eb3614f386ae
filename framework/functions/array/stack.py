"""Joining arrays along a new axis."""

from __future__ import annotations

from collections.abc import Iterable

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import expect_joinable, joined_arrays
from framework.utils import type_check
from framework.variable import Variable


class Stack(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.separate import separate
        return separate(grad_outputs[0], self.axis)


def stack(xs: Iterable, axis: int = 0) -> Variable:
    """Joins arrays of one shape along a new axis.

    Args:
        xs (sequence of Variable or array): the ``n`` inputs, at least one, of one shape
            ``(s_0, ..., s_{N-1})`` and one dtype.
        axis (int): the position of the new axis in the output, in ``[-N - 1, N]``; negative
            values count from the end of the output's axes.

    Returns:
        Variable: of the inputs' dtype and their shape with ``n`` inserted at ``axis``; its
        ``i``-th slice along ``axis`` is ``xs[i]``.
    """
    xs = tuple(xs)
    arrays = joined_arrays('stack', xs)
    expect_joinable('stack', arrays)
    return Stack(type_check.normalize_axis('stack', axis, arrays[0].ndim + 1)).apply(xs)[0]
