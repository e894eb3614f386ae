"""MTCNN's box arithmetic: the windows of P-Net's cells, the regression of boxes by the nets'
offsets, and squaring.

Boxes are float32 ``(R, 4)`` arrays ``(y_min, x_min, y_max, x_max)``. The arithmetic is
float32 and in the order of facenet-pytorch's, so that the boxes agree to the last bit (P-Net's
windows are floored, so one rounding could move a box by a pixel).
"""

from __future__ import annotations

import numpy

from framework import backend

_STRIDE = 2
_CELL_SIZE = 12


def cell_bbox(y, x, scale: float):
    """The boxes, in the input image, of P-Net's cells at ``(y, x)`` of a pyramid level.

    Args:
        y (array): integer ``(R,)`` rows of the cells in P-Net's output.
        x (array): integer ``(R,)`` columns.
        scale (float): the level's size over the image's.

    Returns:
        array: float32 ``(R, 4)``: ``floor((2 * y + 1) / scale)`` to
        ``floor((2 * y + 12) / scale)``, and the same for ``x``.
    """
    xp = backend.get_array_module(y, x)
    corner = xp.stack([y, x], axis=1).astype(numpy.float32) * _STRIDE
    scale = numpy.float32(scale)
    low = xp.floor((corner + 1) / scale)
    high = xp.floor((corner + _CELL_SIZE) / scale)
    return xp.concatenate([low, high], axis=1)


def regress_bbox(bbox, offset, inclusive: bool):
    """Moves the edges of boxes by offsets relative to the boxes' sizes.

    Args:
        bbox (array): float32 ``(R, 4)`` boxes.
        offset (array): float32 ``(R, 4)`` offsets ``(dy_min, dx_min, dy_max, dx_max)``.
        inclusive (bool): whether the sizes count both edges (``y_max - y_min + 1``, as the
            refinement stages do) or not (``y_max - y_min``, as P-Net's stage does).

    Returns:
        array: float32 ``(R, 4)``: ``y_min + dy_min * height`` and so on.
    """
    xp = backend.get_array_module(bbox, offset)
    size = bbox[:, 2:] - bbox[:, :2]
    if inclusive:
        size += 1
    return bbox + offset * xp.concatenate([size, size], axis=1)


def square_bbox(bbox):
    """The squares with the centres of the boxes and sides the longer of their sides.

    Args:
        bbox (array): float32 ``(R, 4)`` boxes.

    Returns:
        array: float32 ``(R, 4)`` squares.
    """
    xp = backend.get_array_module(bbox)
    size = bbox[:, 2:] - bbox[:, :2]
    side = xp.maximum(size[:, 0], size[:, 1])[:, None]
    low = bbox[:, :2] + size * 0.5 - side * 0.5
    return xp.concatenate([low, low + side], axis=1)
