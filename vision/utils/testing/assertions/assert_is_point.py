"""The point contract: per instance, float32 ``(K, 2)`` points and boolean ``(K,)`` visibility."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import check_array, describe, fail_unless


def check_point(where: str, point, visible=None, size=None, n_point=None) -> None:
    """:func:`assert_is_point`, with messages that start with ``where``."""
    fail_unless(isinstance(point, (numpy.ndarray, list, tuple)),
                f'{where}: point must be an array or a list of arrays, but got {describe(point)}')
    if visible is not None:
        fail_unless(isinstance(visible, (numpy.ndarray, list, tuple)),
                    f'{where}: visible must be an array or a list of arrays, but got '
                    f'{describe(visible)}')
        fail_unless(len(visible) == len(point),
                    f'{where}: visible must have one entry per instance ({len(point)}), but '
                    f'got {len(visible)}')
    for i, pnt in enumerate(point):
        check_array(where, f'point[{i}]', pnt, numpy.float32, '(K, 2)',
                    lambda s: s[1:] == (2,))
        if n_point is not None:
            fail_unless(len(pnt) == n_point,
                        f'{where}: point[{i}] must have {n_point} points, but got {len(pnt)}')
        if visible is None:
            shown = pnt
        else:
            shape = (len(pnt),)
            check_array(where, f'visible[{i}]', visible[i], numpy.bool_,
                        f'{shape}, one entry per point', shape.__eq__)
            shown = pnt[visible[i]]
        if size is not None:
            inside = (shown >= 0).all() and (shown <= numpy.asarray(size)).all()
            fail_unless(inside, f'{where}: the visible points of point[{i}] must lie within '
                                f'the image of size {tuple(size)}')


def assert_is_point(point, visible=None, size: tuple[int, int] | None = None,
                    n_point: int | None = None) -> None:
    """Checks that points follow the point convention.

    Raises :class:`AssertionError` saying what is wrong if they do not.

    Args:
        point (~numpy.ndarray or list of arrays): The points of :math:`R` instances: an array
            of shape :math:`(R, K, 2)`, or a list of :math:`R` arrays of shape :math:`(K, 2)`,
            float32, each point ``(y, x)``.
        visible (~numpy.ndarray or list of arrays): Optional visibility of the points, an
            array of shape :math:`(R, K)` or a list of :math:`R` arrays :math:`(K,)`, boolean.
            Points that are not visible are not checked against ``size``.
        size (tuple of ints): The size :math:`(H, W)` of the image. If given, the visible
            points must satisfy ``0 <= y <= H`` and ``0 <= x <= W``.
        n_point (int): If given, the number :math:`K` of points of every instance.
    """
    check_point('assert_is_point', point, visible, size, n_point)
