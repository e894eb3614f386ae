"""Intersection over union between two sets of masks."""

from __future__ import annotations

import numpy

from framework import backend
from vision.utils._validation import ShapeError, as_masks

# Elements converted to float32 at once. Each partial count is below 2 ** 22, so exact.
_CHUNK = 1 << 22


def mask_iou(mask_a: numpy.ndarray, mask_b: numpy.ndarray) -> numpy.ndarray:
    """Calculates the Intersection over Union (IoU) between masks.

    The IoU of two masks is the number of pixels in both divided by the number of pixels in
    either. Two empty masks have an IoU of NaN. The intersections of all pairs come from one
    matrix product, not a loop over pairs.

    Args:
        mask_a (~numpy.ndarray): A boolean array of shape :math:`(N, H, W)`.
        mask_b (~numpy.ndarray): A boolean array of shape :math:`(K, H, W)`.

    Returns:
        ~numpy.ndarray:
        A float32 array of shape :math:`(N, K)`, on the device of the masks, whose element
        :math:`(n, k)` is the IoU of the :math:`n`-th mask of ``mask_a`` and the :math:`k`-th
        mask of ``mask_b``.

    Raises:
        ValueError: If a mask array is not 3-dimensional, or the two have different
            :math:`(H, W)` (also an :class:`IndexError`, as in ChainerCV), or live on
            different devices.
        TypeError: If a mask array is not boolean.
    """
    mask_a = as_masks('mask_iou', 'mask_a', mask_a)
    mask_b = as_masks('mask_iou', 'mask_b', mask_b)
    if mask_a.shape[1:] != mask_b.shape[1:]:
        raise ShapeError(f'mask_iou: mask_a and mask_b must have the same (H, W), but got '
                         f'shapes {mask_a.shape} and {mask_b.shape}')
    backend.same_device('mask_iou', (mask_a, mask_b), ('mask_a', 'mask_b'))
    xp = backend.get_array_module(mask_a)
    n_pixel = mask_a.shape[1] * mask_a.shape[2]
    flat_a = mask_a.reshape(len(mask_a), n_pixel)
    flat_b = mask_b.reshape(len(mask_b), n_pixel)
    intersection = xp.zeros((len(mask_a), len(mask_b)), dtype=numpy.float64)
    step = max(1, _CHUNK // max(len(mask_a) + len(mask_b), 1))
    for start in range(0, n_pixel, step):
        part_a = flat_a[:, start:start + step].astype(numpy.float32)
        part_b = flat_b[:, start:start + step].astype(numpy.float32)
        intersection += part_a @ part_b.T
    area_a = xp.count_nonzero(flat_a, axis=1)
    area_b = xp.count_nonzero(flat_b, axis=1)
    union = area_a[:, None] + area_b[None] - intersection
    with numpy.errstate(divide='ignore', invalid='ignore'):
        return (intersection / union).astype(numpy.float32)
