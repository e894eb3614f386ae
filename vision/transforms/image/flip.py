"""Flipping an image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_image


def flip(img: numpy.ndarray, y_flip: bool = False, x_flip: bool = False,
         copy: bool = False) -> numpy.ndarray:
    """Flips an image vertically, horizontally or both.

    Boxes and points follow with :func:`~vision.transforms.flip_bbox` and
    :func:`~vision.transforms.flip_point`.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        y_flip (bool): Flip vertically (the rows are reversed).
        x_flip (bool): Flip horizontally (the columns are reversed).
        copy (bool): If :obj:`False` (default), a view of ``img`` is returned; if :obj:`True`,
            a new array.

    Returns:
        ~numpy.ndarray: The flipped image, :math:`(C, H, W)`, of the dtype of ``img``.
    """
    check_image('flip', img)
    out = img[:, ::-1 if y_flip else 1, ::-1 if x_flip else 1]
    return out.copy() if copy else out
