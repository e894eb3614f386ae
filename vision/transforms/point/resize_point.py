"""Scaling points with their resized image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_extent, check_point
from vision.transforms.point._map import Points, map_point


def resize_point(point: Points, in_size: tuple[int, int],
                 out_size: tuple[int, int]) -> Points:
    """Scales points as :func:`~vision.transforms.resize` scales their image.

    The y coordinates are multiplied by :math:`H_{out} / H_{in}` and the x ones by
    :math:`W_{out} / W_{in}`.

    Args:
        point (~numpy.ndarray or list of arrays): Points, floating point, each :math:`(y, x)`:
            an array :math:`(R, K, 2)` or a list of :math:`R` arrays :math:`(K_i, 2)`.
        in_size (tuple): The size :math:`(H_{in}, W_{in})` of the image before resizing.
        out_size (tuple): The size :math:`(H_{out}, W_{out})` of the image after resizing.

    Returns:
        ~numpy.ndarray or list of arrays: New points, in the form and dtype of ``point``.
    """
    check_point('resize_point', point)
    in_H, in_W = check_extent('resize_point', 'in_size', in_size)
    out_H, out_W = check_extent('resize_point', 'out_size', out_size)
    y_scale = float(out_H) / in_H
    x_scale = float(out_W) / in_W

    def transform(pnt: numpy.ndarray) -> numpy.ndarray:
        out = pnt.copy()
        out[..., 0] *= y_scale
        out[..., 1] *= x_scale
        return out

    return map_point(point, transform)
