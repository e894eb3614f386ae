"""Joining arrays along an existing axis."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.utils import type_check
from framework.variable import Variable


def _joined_arrays(fname: str, xs) -> list:
    """Checks the inputs of a function that joins arrays and returns their arrays: at least
    one, Variables or arrays, of one dtype and one number of dimensions."""
    arrays = [array_input(fname, f'xs[{i}]', x) for i, x in enumerate(xs)]
    if not arrays:
        raise ValueError(f'{fname}: xs must hold at least one array, but got none')
    type_check.expect_same_dtype(fname, [f'xs[{i}]' for i in range(len(arrays))], arrays)
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != arrays[0].ndim:
            raise ValueError(f'{fname}: xs[{i}] must have as many dimensions as xs[0] '
                             f'{arrays[0].shape}, but got shape {a.shape}')
    return arrays


def _expect_same_shape(fname: str, arrays, free_axis: int | None = None) -> None:
    """Checks that the arrays have one shape except along ``free_axis`` (if not None)."""
    first = arrays[0].shape
    for i, a in enumerate(arrays[1:], 1):
        if any(s != t for d, (s, t) in enumerate(zip(a.shape, first)) if d != free_axis):
            where = '' if free_axis is None else f' except along axis {free_axis}'
            raise ValueError(f'{fname}: xs[{i}] must have the shape of xs[0] {first}{where}, '
                             f'but got shape {a.shape}')


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
    arrays = _joined_arrays('concat', xs)
    axis = type_check.normalize_axis('concat', axis, arrays[0].ndim)
    _expect_same_shape('concat', arrays, axis)
    return Concat(axis).apply(xs)[0]
