"""The bounding box contract: float32 ``(R, 4)`` with ``y_min < y_max`` and ``x_min < x_max``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import check_array


def _check_rows(where: str, bbox: numpy.ndarray, good: numpy.ndarray, rule: str) -> None:
    bad = numpy.flatnonzero(~good)
    if bad.size:
        raise AssertionError(f'{where}: each box must have {rule}, but box {bad[0]} is '
                             f'{bbox[bad[0]].tolist()} ({bad.size} of {len(bbox)} boxes fail)')


def check_bbox(where: str, bbox, size=None) -> None:
    """:func:`assert_is_bbox`, with messages that start with ``where``."""
    check_array(where, 'bbox', bbox, numpy.float32, '(R, 4)', lambda s: s[1:] == (4,))
    _check_rows(where, bbox, bbox[:, 0] < bbox[:, 2], 'y_min < y_max')
    _check_rows(where, bbox, bbox[:, 1] < bbox[:, 3], 'x_min < x_max')
    if size is not None:
        H, W = size
        inside = (bbox[:, :2] >= 0).all(axis=1) & (bbox[:, 2] <= H) & (bbox[:, 3] <= W)
        _check_rows(where, bbox, inside, f'0 <= y_min, 0 <= x_min, y_max <= {H} and '
                    f'x_max <= {W} (inside the image)')


def assert_is_bbox(bbox: numpy.ndarray, size: tuple[int, int] | None = None) -> None:
    """Checks that bounding boxes follow the bounding box convention.

    Raises :class:`AssertionError` saying what is wrong if they do not.

    Args:
        bbox (~numpy.ndarray): The boxes to check: a float32 array of shape :math:`(R, 4)`,
            each row ``(y_min, x_min, y_max, x_max)`` with ``y_min < y_max`` and
            ``x_min < x_max``.
        size (tuple of ints): The size :math:`(H, W)` of the image. If given, every box must
            lie within it: ``0 <= y_min``, ``0 <= x_min``, ``y_max <= H``, ``x_max <= W``.
    """
    check_bbox('assert_is_bbox', bbox, size)
