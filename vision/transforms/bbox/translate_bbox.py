"""Moving boxes with their padded or cropped image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_offsets
from vision.utils._validation import as_bbox


def translate_bbox(bbox: numpy.ndarray, y_offset: float = 0,
                   x_offset: float = 0) -> numpy.ndarray:
    """Moves boxes by an offset, as when their image's top-left corner moves to
    :math:`(y_{offset}, x_{offset})` (padding; cropping with negative offsets).

    Args:
        bbox (~numpy.ndarray): Boxes, :math:`(R, 4)`, floating point, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        y_offset (int or float): The offset along y.
        x_offset (int or float): The offset along x.

    Returns:
        ~numpy.ndarray: New boxes, :math:`(R, 4)`, of the dtype of ``bbox``.
    """
    bbox = as_bbox('translate_bbox', 'bbox', bbox, kinds='f')
    check_offsets('translate_bbox', y_offset, x_offset)
    out = bbox.copy()
    out += (y_offset, x_offset, y_offset, x_offset)
    return out
