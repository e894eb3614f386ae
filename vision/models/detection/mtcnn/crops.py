"""Face crops for the refinement stages: the boxes clipped to the image (facenet-pytorch's
``pad``) and area-resampled to the nets' input size."""

from __future__ import annotations

import numpy

from framework import backend
from vision.models.detection.mtcnn.area_resampling import area_windows, normalize, window_means


def crop_windows(bbox, height: int, width: int):
    """The pixel ranges that the boxes cover in an image, clipped to it.

    The coordinates are truncated toward zero and the box taken as the pixels
    ``trunc(y_min) - 1 <= y < trunc(y_max)`` (the reference's 1-based ranges), clipped to the
    image; there is no zero padding. A box that lies wholly outside the image is empty.

    Args:
        bbox (array): float32 ``(R, 4)`` boxes ``(y_min, x_min, y_max, x_max)``.
        height (int): the image's height.
        width (int): the image's width.

    Returns:
        tuple: ``(window, valid)``: int64 ``(R, 4)`` ranges ``(y_begin, x_begin, y_end,
        x_end)`` and bool ``(R,)``, True where the range is not empty.
    """
    xp = backend.get_array_module(bbox)
    corner = bbox.astype(numpy.int64)
    begin = xp.maximum(corner[:, :2], 1) - 1
    end = xp.minimum(corner[:, 2:], xp.asarray([height, width], dtype=numpy.int64))
    valid = (end > begin).all(axis=1)
    return xp.concatenate([begin, end], axis=1), valid


def resample_crops(table, window, size: int):
    """Crops of an image, each area-resampled to ``size x size`` and normalised.

    Args:
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        window (array): int64 ``(R, 4)`` non-empty ranges from :func:`crop_windows`.
        size (int): the side of the output crops.

    Returns:
        array: float32 ``(R, C, size, size)``, normalised for the nets.
    """
    rows = area_windows(window[:, 0], window[:, 2] - window[:, 0], size)
    cols = area_windows(window[:, 1], window[:, 3] - window[:, 1], size)
    return normalize(window_means(table, rows, cols))
