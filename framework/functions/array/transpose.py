"""Permuting the axes of an array."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, is_int
from framework.utils import type_check
from framework.variable import Variable


class Transpose(FunctionNode):

    def __init__(self, axes: tuple[int, ...]):
        self.axes = axes

    def forward(self, inputs):
        x, = inputs
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        inverse = tuple(int(a) for a in numpy.argsort(self.axes))
        return Transpose(inverse).apply(grad_outputs)


def transpose(x, axes: Sequence[int] | None = None) -> Variable:
    """Permutes the axes of ``x`` without copying its data.

    Args:
        x (Variable or array): the input, of shape ``(s_0, ..., s_{N-1})`` and any dtype.
        axes (None or sequence of int): a permutation of ``range(N)`` (negative values count
            from the end): axis ``i`` of the output is axis ``axes[i]`` of ``x``. None reverses
            the axes.

    Returns:
        Variable: of shape ``(s_{axes[0]}, ..., s_{axes[N-1]})`` and the dtype of ``x``.
    """
    ndim = array_input('transpose', 'x', x).ndim
    if axes is None:
        perm = tuple(reversed(range(ndim)))
    else:
        axes = (axes,) if is_int(axes) else tuple(axes)
        if len(axes) != ndim:
            raise ValueError(f'transpose: axes must have one entry per axis of x ({ndim}), '
                             f'but got {axes}')
        perm = tuple(type_check.normalize_axis('transpose', a, ndim, 'axes') for a in axes)
        if len(set(perm)) != ndim:
            raise ValueError(f'transpose: axes must be a permutation of the axes of x, '
                             f'but got {axes}')
    return Transpose(perm).apply((x,))[0]
