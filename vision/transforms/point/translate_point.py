"""Moving points with their padded or cropped image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_offsets, check_point
from vision.transforms.point._map import Points, map_point


def translate_point(point: Points, y_offset: float = 0, x_offset: float = 0) -> Points:
    """Moves points by an offset, as when their image's top-left corner moves to
    :math:`(y_{offset}, x_{offset})` (padding; cropping with negative offsets).

    Args:
        point (~numpy.ndarray or list of arrays): Points, floating point, each :math:`(y, x)`:
            an array :math:`(R, K, 2)` or a list of :math:`R` arrays :math:`(K_i, 2)`.
        y_offset (int or float): The offset along y.
        x_offset (int or float): The offset along x.

    Returns:
        ~numpy.ndarray or list of arrays: New points, in the form and dtype of ``point``.
    """
    check_point('translate_point', point)
    check_offsets('translate_point', y_offset, x_offset)
    return map_point(point, lambda pnt: pnt + numpy.array((y_offset, x_offset), pnt.dtype))
