"""Flipping points with their image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_extent, check_point
from vision.transforms.point._map import Points, map_point


def flip_point(point: Points, size: tuple[int, int], y_flip: bool = False,
               x_flip: bool = False) -> Points:
    """Flips points as :func:`~vision.transforms.flip` flips their image.

    A vertical flip maps :math:`y` to :math:`H - y`, a horizontal one :math:`x` to
    :math:`W - x`, as for boxes (:func:`~vision.transforms.flip_bbox`).

    Args:
        point (~numpy.ndarray or list of arrays): Points, floating point, each :math:`(y, x)`:
            an array :math:`(R, K, 2)` (:math:`K` points for each of :math:`R` instances) or a
            list of :math:`R` arrays :math:`(K_i, 2)`.
        size (tuple): The size :math:`(H, W)` of the image.
        y_flip (bool): Flip the points as a vertical flip of the image.
        x_flip (bool): Flip the points as a horizontal flip of the image.

    Returns:
        ~numpy.ndarray or list of arrays: New points, in the form and dtype of ``point``.
    """
    check_point('flip_point', point)
    H, W = check_extent('flip_point', 'size', size)

    def transform(pnt: numpy.ndarray) -> numpy.ndarray:
        out = pnt.copy()
        if y_flip:
            out[..., 0] = H - pnt[..., 0]
        if x_flip:
            out[..., 1] = W - pnt[..., 1]
        return out

    return map_point(point, transform)
