"""The image contract: ``(C, H, W)`` with 3 (or 1) channels and values in [0, 255]."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import check_range, describe, fail_unless


def check_image(where: str, img, color: bool = True, check_range_: bool = True) -> None:
    """:func:`assert_is_image`, with messages that start with ``where``."""
    fail_unless(isinstance(img, numpy.ndarray),
                f'{where}: img must be a numpy.ndarray, but got {describe(img)}')
    n_channel = 3 if color else 1
    fail_unless(img.ndim == 3 and img.shape[0] == n_channel,
                f'{where}: img must have shape ({n_channel}, H, W), but got shape {img.shape}')
    if check_range_:
        check_range(where, 'img', img, 0, 255)


def assert_is_image(img: numpy.ndarray, color: bool = True, check_range: bool = True) -> None:
    """Checks that an image follows the image convention.

    Raises :class:`AssertionError` saying what is wrong if it does not.

    Args:
        img (~numpy.ndarray): The image to check, expected of shape :math:`(C, H, W)`. Any
            dtype is accepted.
        color (bool): If :obj:`True` (default), :math:`C` must be 3, else 1.
        check_range (bool): If :obj:`True` (default), the values must lie in
            :math:`[0, 255]`.
    """
    check_image('assert_is_image', img, color, check_range)
