"""The bounding boxes of masks."""

from __future__ import annotations

import numpy

from vision.utils._validation import as_masks


def mask_to_bbox(mask: numpy.ndarray) -> numpy.ndarray:
    """Computes the bounding boxes around the masked regions.

    A box covers its pixels: a mask whose only pixel is :math:`(y, x)` gives
    ``(y, x, y + 1, x + 1)``. An empty mask gives ``(0, 0, 0, 0)``.

    Args:
        mask (~numpy.ndarray): A boolean array of shape :math:`(R, H, W)`.

    Returns:
        ~numpy.ndarray:
        A float32 array of shape :math:`(R, 4)`, each row ``(y_min, x_min, y_max, x_max)``.

    Raises:
        ValueError: If ``mask`` is not 3-dimensional.
        TypeError: If ``mask`` is not boolean.
    """
    mask = as_masks('mask_to_bbox', 'mask', mask)
    R, H, W = mask.shape
    if H == 0 or W == 0:
        return numpy.zeros((R, 4), dtype=numpy.float32)
    rows = mask.any(axis=2)
    cols = mask.any(axis=1)
    bbox = numpy.stack([
        rows.argmax(axis=1),
        cols.argmax(axis=1),
        H - rows[:, ::-1].argmax(axis=1),
        W - cols[:, ::-1].argmax(axis=1),
    ], axis=1).astype(numpy.float32)
    bbox[~rows.any(axis=1)] = 0
    return bbox
