"""Permuting the slices of an array along one axis."""

from __future__ import annotations

import numpy

from framework import backend
from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.utils import type_check
from framework.variable import Variable


def _inverse(indices):
    xp = backend.get_array_module(indices)
    inverse = xp.empty_like(indices)
    inverse[indices] = xp.arange(indices.shape[0], dtype=indices.dtype)
    return inverse


class Permutate(FunctionNode):
    """Permutes its input along ``axis``; the indices are a constant of the node."""

    def __init__(self, indices, axis: int, inv: bool):
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def forward(self, inputs):
        x, = inputs
        indices = _inverse(self.indices) if self.inv else self.indices
        return x[(slice(None),) * self.axis + (indices,)],

    def backward(self, indexes, grad_outputs):
        return Permutate(self.indices, self.axis, not self.inv).apply(grad_outputs)


def permutate(x, indices, axis: int = 0, inv: bool = False) -> Variable:
    """Permutes ``x`` along ``axis``: ``y[indices[i]] = x[i]`` if ``inv`` else
    ``y[i] = x[indices[i]]`` (indexing along ``axis``).

    Args:
        x (Variable or array): the input.
        indices (Variable or array): a signed integer array of shape ``(x.shape[axis],)``, a
            permutation of ``0 .. x.shape[axis] - 1`` (checked when ``config.debug`` is on, as
            in Chainer). Not differentiated.
        axis (int): the axis to permute; negative values count from the end.
        inv (bool): apply the inverse permutation of ``indices``.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    x_array = array_input('permutate', 'x', x)
    indices = array_input('permutate', 'indices', indices)
    type_check.expect_dtype_kind('permutate', 'indices', indices, 'i')
    type_check.expect_ndim('permutate', 'indices', indices, 1)
    axis = type_check.normalize_axis('permutate', axis, x_array.ndim)
    if indices.shape[0] != x_array.shape[axis]:
        raise ValueError(f'permutate: indices must have one entry per slice of x along axis '
                         f'{axis} ({x_array.shape[axis]}), but got shape {indices.shape}')
    backend.same_device('permutate', (x_array, indices), ('x', 'indices'))
    if config.debug:
        host = backend.to_cpu(indices)
        if not numpy.array_equal(numpy.sort(host), numpy.arange(host.shape[0])):
            raise ValueError(f'permutate: indices must be a permutation of 0 .. '
                             f'{host.shape[0] - 1}, but got {host}')
    return Permutate(indices, axis, bool(inv)).apply((x,))[0]
