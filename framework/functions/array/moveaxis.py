"""Moving axes of an array to new positions."""

from __future__ import annotations

from collections.abc import Sequence

from framework.functions._inputs import array_input, is_int
from framework.functions.array.transpose import transpose
from framework.utils import type_check
from framework.variable import Variable


def _axes(name, axes, ndim):
    axes = (axes,) if is_int(axes) else tuple(axes)
    normalized = [type_check.normalize_axis('moveaxis', a, ndim, name) for a in axes]
    if len(set(normalized)) != len(normalized):
        raise ValueError(f'moveaxis: {name} must not repeat an axis, but got {axes}')
    return normalized


def moveaxis(x, source: int | Sequence[int], destination: int | Sequence[int]) -> Variable:
    """Moves axes of ``x`` to new positions (as ``numpy.moveaxis``), without copying the data.

    Args:
        x (Variable or array): the input, of any shape and dtype.
        source (int or sequence of int): the axes to move, without repeats; negative values
            count from the end.
        destination (int or sequence of int): the position of each moved axis in the output,
            one per entry of ``source``, without repeats. The other axes keep their order.

    Returns:
        Variable: ``x`` with its axes permuted, of the dtype of ``x``.
    """
    ndim = array_input('moveaxis', 'x', x).ndim
    src = _axes('source', source, ndim)
    dst = _axes('destination', destination, ndim)
    if len(src) != len(dst):
        raise ValueError(f'moveaxis: source and destination must have the same number of '
                         f'axes, but got {source} and {destination}')
    perm = [i for i in range(ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return transpose(x, perm)
