"""Joining arrays along an existing axis."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import expect_joinable, joined_arrays
from framework.utils import type_check
from framework.variable import Variable


class Concat(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.concatenate(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.split_axis import split_axis
        if len(self.inputs) == 1:
            return grad_outputs
        sizes = itertools.accumulate(x.shape[self.axis] for x in self.inputs[:-1])
        return split_axis(grad_outputs[0], list(sizes), self.axis)


def concat(xs: Iterable, axis: int = 1) -> Variable:
    """Joins arrays along an existing axis.

    Args:
        xs (sequence of Variable or array): the inputs, at least one, of one dtype and one
            number of dimensions (at least 1), and of one shape except along ``axis``.
        axis (int): the axis along which to join; negative values count from the end.

    Returns:
        Variable: of the shape of the inputs except along ``axis``, where its length is the sum
        of theirs, and of their dtype.
    """
    xs = tuple(xs)
    arrays = joined_arrays('concat', xs)
    axis = type_check.normalize_axis('concat', axis, arrays[0].ndim)
    expect_joinable('concat', arrays, axis)
    return Concat(axis).apply(xs)[0]
