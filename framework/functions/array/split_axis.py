"""Splitting an array into pieces along an axis."""

from __future__ import annotations

from collections.abc import Sequence

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, is_int
from framework.functions.array.concat import concat
from framework.utils import type_check
from framework.variable import Variable


class SplitAxis(FunctionNode):

    def __init__(self, indices_or_sections: int | list[int], axis: int):
        self.indices_or_sections = indices_or_sections
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        ys = tuple(xp.split(x, self.indices_or_sections, self.axis))
        self._shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        dtype = self.inputs[0].dtype
        gys = [xp.zeros(shape, dtype) if gy is None else gy
               for gy, shape in zip(grad_outputs, self._shapes)]
        return concat(gys, self.axis),


def _split_points(indices_or_sections, size: int, axis: int) -> int | list[int]:
    """Checks ``indices_or_sections``; returns the sections, or the indices made non-negative."""
    ios = indices_or_sections
    if backend.is_array(ios):
        ios = backend.to_cpu(ios)
        if ios.ndim > 1:
            raise TypeError(f'split_axis: indices_or_sections must be an int or a 1-D sequence '
                            f'of ints, but got an array of shape {ios.shape}')
        if ios.size and ios.dtype.kind not in 'iu':
            raise TypeError(f'split_axis: indices_or_sections must hold integers, '
                            f'but got dtype {ios.dtype}')
        ios = int(ios) if ios.ndim == 0 else [int(i) for i in ios]
    if is_int(ios):
        sections = int(ios)
        if sections <= 0 or size % sections:
            raise ValueError(f'split_axis: x of length {size} along axis {axis} cannot be split '
                             f'into {sections} equal sections')
        return sections
    if not isinstance(ios, Sequence) or isinstance(ios, str) or not all(is_int(i) for i in ios):
        raise TypeError(f'split_axis: indices_or_sections must be an int or a 1-D sequence of '
                        f'ints, but got {indices_or_sections!r}')
    indices = [max(int(i) + size, 0) if i < 0 else int(i) for i in ios]
    if any(i > size for i in indices) or any(p > n for p, n in zip(indices, indices[1:])):
        raise ValueError(f'split_axis: indices must be sorted and at most the length of x along '
                         f'axis {axis} ({size}), but got {list(ios)}')
    return indices


def split_axis(x, indices_or_sections, axis: int,
               force_tuple: bool = True) -> tuple[Variable, ...] | Variable:
    """Splits ``x`` into pieces along ``axis``, as ``numpy.split``.

    Args:
        x (Variable or array): the input, of any dtype and at least one dimension.
        indices_or_sections (int or 1-D sequence of int): an int ``n`` splits ``x`` into ``n``
            pieces of equal length (which must divide the length of ``x`` along ``axis``); a
            sorted sequence gives the indices along ``axis`` at which ``x`` is split (negative
            ones count from the end), so that ``k`` indices give ``k + 1`` pieces, some of them
            possibly empty.
        axis (int): the axis to split; negative values count from the end.
        force_tuple (bool): return a tuple even for a single piece; otherwise a single piece is
            returned as a Variable.

    Returns:
        tuple of Variable, or Variable: the pieces, of the dtype of ``x`` and its shape except
        along ``axis``.
    """
    x_array = array_input('split_axis', 'x', x)
    axis = type_check.normalize_axis('split_axis', axis, x_array.ndim)
    points = _split_points(indices_or_sections, x_array.shape[axis], axis)
    ys = SplitAxis(points, axis).apply((x,))
    return ys if force_tuple or len(ys) != 1 else ys[0]
