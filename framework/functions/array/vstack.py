"""Joining arrays vertically (row wise)."""

from __future__ import annotations

from collections.abc import Iterable

from framework.functions._inputs import expect_joinable, joined_arrays
from framework.functions.array.concat import concat
from framework.functions.array.reshape import reshape
from framework.variable import Variable


def vstack(xs: Iterable) -> Variable:
    """Joins arrays vertically (row wise), as ``numpy.vstack``.

    Args:
        xs (sequence of Variable or array): the inputs, at least one, of one dtype and one
            number of dimensions ``N``. For ``N >= 2`` they must have one shape except along
            the first axis; for ``N <= 1`` they must have one shape.

    Returns:
        Variable: of the inputs' dtype. For ``N >= 2`` the inputs joined along the first axis;
        for ``N <= 1`` a matrix whose ``i``-th row is ``xs[i]`` (of shape ``(len(xs), 1)`` for
        scalars).
    """
    xs = tuple(xs)
    arrays = joined_arrays('vstack', xs)
    ndim = arrays[0].ndim
    if ndim <= 1:
        expect_joinable('vstack', arrays)
        return concat([reshape(x, (1, a.size)) for x, a in zip(xs, arrays)], axis=0)
    expect_joinable('vstack', arrays, 0)
    return concat(xs, axis=0)
