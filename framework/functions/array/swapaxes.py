"""Swapping two axes of an array."""

from __future__ import annotations

from framework.functions._inputs import array_input
from framework.functions.array.transpose import transpose
from framework.utils import type_check
from framework.variable import Variable


def swapaxes(x, axis1: int, axis2: int) -> Variable:
    """Interchanges two axes of ``x`` without copying its data.

    Args:
        x (Variable or array): the input, of any shape and dtype.
        axis1 (int): the first axis; negative values count from the end.
        axis2 (int): the second axis.

    Returns:
        Variable: ``x`` with ``axis1`` and ``axis2`` interchanged in its shape, of the dtype of
        ``x``.
    """
    ndim = array_input('swapaxes', 'x', x).ndim
    a = type_check.normalize_axis('swapaxes', axis1, ndim, 'axis1')
    b = type_check.normalize_axis('swapaxes', axis2, ndim, 'axis2')
    perm = list(range(ndim))
    perm[a], perm[b] = b, a
    return transpose(x, perm)
