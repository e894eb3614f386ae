"""Scaling boxes with their resized image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_extent
from vision.utils._validation import as_bbox


def resize_bbox(bbox: numpy.ndarray, in_size: tuple[int, int],
                out_size: tuple[int, int]) -> numpy.ndarray:
    """Scales boxes as :func:`~vision.transforms.resize` scales their image.

    The y coordinates are multiplied by :math:`H_{out} / H_{in}` and the x ones by
    :math:`W_{out} / W_{in}`.

    Args:
        bbox (~numpy.ndarray): Boxes, :math:`(R, 4)`, floating point, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        in_size (tuple): The size :math:`(H_{in}, W_{in})` of the image before resizing.
        out_size (tuple): The size :math:`(H_{out}, W_{out})` of the image after resizing.

    Returns:
        ~numpy.ndarray: New boxes, :math:`(R, 4)`, of the dtype of ``bbox``.
    """
    bbox = as_bbox('resize_bbox', 'bbox', bbox, kinds='f')
    in_H, in_W = check_extent('resize_bbox', 'in_size', in_size)
    out_H, out_W = check_extent('resize_bbox', 'out_size', out_size)
    out = bbox.copy()
    out[:, 0::2] *= float(out_H) / in_H
    out[:, 1::2] *= float(out_W) / in_W
    return out
