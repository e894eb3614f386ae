"""Flipping boxes with their image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_extent
from vision.utils._validation import as_bbox


def flip_bbox(bbox: numpy.ndarray, size: tuple[int, int], y_flip: bool = False,
              x_flip: bool = False) -> numpy.ndarray:
    """Flips boxes as :func:`~vision.transforms.flip` flips their image.

    A vertical flip maps :math:`y` to :math:`H - y` (box edges are on pixel boundaries, so a
    box covering rows :math:`[y_{min}, y_{max})` ends up covering
    :math:`[H - y_{max}, H - y_{min})`); a horizontal one maps :math:`x` to :math:`W - x`.

    Args:
        bbox (~numpy.ndarray): Boxes, :math:`(R, 4)`, floating point, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        size (tuple): The size :math:`(H, W)` of the image.
        y_flip (bool): Flip the boxes as a vertical flip of the image.
        x_flip (bool): Flip the boxes as a horizontal flip of the image.

    Returns:
        ~numpy.ndarray: New boxes, :math:`(R, 4)`, of the dtype of ``bbox``.
    """
    bbox = as_bbox('flip_bbox', 'bbox', bbox, kinds='f')
    H, W = check_extent('flip_bbox', 'size', size)
    out = bbox.copy()
    if y_flip:
        out[:, 0::2] = H - bbox[:, 2::-2]
    if x_flip:
        out[:, 1::2] = W - bbox[:, 3::-2]
    return out
