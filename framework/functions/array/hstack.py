"""Joining arrays horizontally (column wise)."""

from __future__ import annotations

from collections.abc import Iterable

from framework.functions._inputs import expect_joinable, joined_arrays
from framework.functions.array.concat import concat
from framework.functions.array.reshape import reshape
from framework.variable import Variable


def hstack(xs: Iterable) -> Variable:
    """Joins arrays horizontally (column wise), as ``numpy.hstack``.

    Args:
        xs (sequence of Variable or array): the inputs, at least one, of one dtype and one
            number of dimensions ``N``. For ``N >= 2`` they must have one shape except along
            the second axis; for ``N <= 1`` their shapes may differ.

    Returns:
        Variable: of the inputs' dtype. For ``N >= 2`` the inputs joined along the second axis;
        for ``N == 1`` along the first; for ``N == 0`` a vector of the ``len(xs)`` scalars.
    """
    xs = tuple(xs)
    arrays = joined_arrays('hstack', xs)
    ndim = arrays[0].ndim
    if ndim == 0:
        return concat([reshape(x, (1,)) for x in xs], axis=0)
    if ndim >= 2:
        expect_joinable('hstack', arrays, 1)
    return concat(xs, axis=0 if ndim == 1 else 1)
