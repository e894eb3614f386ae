"""Exact pixel counts of mask intersections, for the instance segmentation evaluations.

COCO's run-length-encoded IoU is an exact ratio of pixel counts, so counting pixels gives the
same numbers as pycocotools without run-length encoding anything: the intersections of all
pairs come from one matrix product of the flattened masks.
"""

from __future__ import annotations

import numpy

# Pixels converted to float32 at once; float32 sums of 0/1 are exact below 2 ** 24.
_CHUNK = 1 << 22


def mask_intersection(mask_a: numpy.ndarray, mask_b: numpy.ndarray) -> numpy.ndarray:
    """The number of pixels in both masks, for every pair.

    Args:
        mask_a (~numpy.ndarray): Boolean, shape :math:`(N, H, W)`.
        mask_b (~numpy.ndarray): Boolean, shape :math:`(K, H, W)`.

    Returns:
        ~numpy.ndarray: float64 of shape :math:`(N, K)`, exact integers.
    """
    flat_a = _flatten(mask_a)
    flat_b = _flatten(mask_b)
    intersection = numpy.zeros((len(flat_a), len(flat_b)))
    if intersection.size == 0:
        return intersection
    step = max(1, min(_CHUNK // (len(flat_a) + len(flat_b)), (1 << 24) - 1))
    for start in range(0, flat_a.shape[1], step):
        part_a = flat_a[:, start:start + step].astype(numpy.float32)
        part_b = flat_b[:, start:start + step].astype(numpy.float32)
        intersection += part_a @ part_b.T
    return intersection


def mask_area(mask: numpy.ndarray) -> numpy.ndarray:
    """The number of pixels of each mask of shape :math:`(R, H, W)`, as float64."""
    return numpy.count_nonzero(_flatten(mask), axis=1).astype(numpy.float64)


def _flatten(mask: numpy.ndarray) -> numpy.ndarray:
    return mask.reshape(len(mask), mask.shape[1] * mask.shape[2])


def pair_mask_iou(mask_a: numpy.ndarray, mask_b: numpy.ndarray) -> numpy.ndarray:
    """IoUs of all pairs of masks in float64; NaN for two empty masks."""
    intersection = mask_intersection(mask_a, mask_b)
    union = mask_area(mask_a)[:, None] + mask_area(mask_b)[None, :] - intersection
    with numpy.errstate(divide='ignore', invalid='ignore'):
        return intersection / union


def check_mask_sizes(fname: str, index: int, pred_mask: numpy.ndarray,
                     gt_mask: numpy.ndarray) -> None:
    """Checks that one image's predicted and ground truth masks have one size."""
    if pred_mask.shape[1:] != gt_mask.shape[1:]:
        raise ValueError(f'{fname}: pred_masks[{index}] and gt_masks[{index}] must have the '
                         f'same (H, W), but got shapes {pred_mask.shape} and {gt_mask.shape}')
