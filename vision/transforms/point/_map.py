"""Applying a transform to points given as one array or as a list of arrays."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy

#: Points of ``R`` instances: one ``(R, K, 2)`` array, or ``R`` arrays ``(K_i, 2)``.
Points = numpy.ndarray | Sequence[numpy.ndarray]


def map_point(point: Points, transform: Callable[[numpy.ndarray], numpy.ndarray]) -> Points:
    """``transform(point)`` for an ``(R, K, 2)`` array; for a list of ``(K, 2)`` arrays, the
    list of ``transform(pnt)``. ``transform`` works on the last axis, ``(y, x)``."""
    if isinstance(point, numpy.ndarray):
        return transform(point)
    return [transform(pnt) for pnt in point]
