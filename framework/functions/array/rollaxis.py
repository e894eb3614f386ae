"""Rolling one axis of an array to a new position."""

from __future__ import annotations

from framework.functions._inputs import array_input, is_int
from framework.functions.array.transpose import transpose
from framework.utils import type_check
from framework.variable import Variable


def rollaxis(x, axis: int, start: int = 0) -> Variable:
    """Moves ``axis`` of ``x`` so that it lies before the axis at ``start`` (as
    ``numpy.rollaxis``), without copying the data.

    Args:
        x (Variable or array): the input, of any shape and dtype, with ``N`` axes.
        axis (int): the axis to move, in ``[-N, N)``.
        start (int): the axis before which ``axis`` is placed, in ``[-N, N]``; the other axes
            keep their order.

    Returns:
        Variable: ``x`` with its axes permuted, of the dtype of ``x``.
    """
    ndim = array_input('rollaxis', 'x', x).ndim
    axis = type_check.normalize_axis('rollaxis', axis, ndim)
    if not is_int(start):
        raise TypeError(f'rollaxis: start must be an int, but got {type(start).__name__}')
    if not -ndim <= start <= ndim:
        raise ValueError(f'rollaxis: start must be in [{-ndim}, {ndim}] for an input of {ndim} '
                         f'dimensions, but got {start}')
    start = int(start) + ndim if start < 0 else int(start)
    if axis < start:
        start -= 1
    perm = [i for i in range(ndim) if i != axis]
    perm.insert(start, axis)
    return transpose(x, perm)
