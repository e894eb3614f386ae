"""The three stages of MTCNN on one image: proposals from P-Net over the pyramid, refinement
by R-Net, and output boxes and landmarks from O-Net."""

from __future__ import annotations

import numpy

from framework import backend
from framework.engine import parallel_map, parallel_slices
from vision.models.detection.mtcnn.bbox_regression import cell_bbox, regress_bbox, square_bbox
from vision.models.detection.mtcnn.crops import crop_windows, resample_crops
from vision.models.detection.mtcnn.image_pyramid import (
    join_bands,
    level_bands,
    level_size,
    pyramid_scales,
    scan_band,
)
from vision.models.detection.mtcnn.suppression import suppress_by_iou, suppress_by_min_area

# Crops fed to R-Net or O-Net at once (facenet-pytorch feeds 512): small enough for several
# batches to run side by side and for a batch's activations to stay near the caches.
_CROP_BATCH = 128


def propose(pnet, table, min_size: float, factor: float, thresh: float):
    """The first stage: P-Net's windows over the pyramid, suppressed per level (IoU 0.5) and
    over all levels (IoU 0.7), regressed and squared.

    Args:
        pnet (~vision.models.detection.mtcnn.PNet): the net.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        min_size (float): the smallest face to find, in pixels.
        factor (float): the ratio of consecutive pyramid scales.
        thresh (float): the least P-Net probability of a window that is kept.

    Returns:
        array: float32 ``(R, 4)`` square candidate boxes.
    """
    xp = backend.get_array_module(table)
    height, width = table.shape[1] - 1, table.shape[2] - 1
    device = backend.get_device_from_array(table)
    scales = pyramid_scales(height, width, min_size, factor)
    sizes = [level_size(height, width, scale) for scale in scales]
    # The bands of every level side by side (the first level is half the work, so levels
    # alone would not share it out), then each level's suppression.
    bands = [(level, band) for level, size in enumerate(sizes) for band in level_bands(size)]
    found = parallel_map(
        lambda unit: scan_band(pnet, table, sizes[unit[0]], unit[1], thresh), bands, device)

    def suppress(level):
        y, x, score, offset = join_bands(
            [cells for (owner, _), cells in zip(bands, found) if owner == level])
        bbox = cell_bbox(y, x, scales[level])
        keep = suppress_by_iou(bbox, score, 0.5)
        return bbox[keep], score[keep], offset[keep]

    levels = [suppress(level) for level in range(len(scales))]
    if not levels:
        return xp.zeros((0, 4), dtype=numpy.float32)
    bbox, score, offset = (xp.concatenate(part) for part in zip(*levels))
    keep = suppress_by_iou(bbox, score, 0.7)
    return square_bbox(regress_bbox(bbox[keep], offset[keep], inclusive=False))


def _crop_boxes(table, bbox):
    """The boxes that cover some pixels of the image and their pixel ranges."""
    window, valid = crop_windows(bbox, table.shape[1] - 1, table.shape[2] - 1)
    return bbox[valid], window[valid]


def _run_on_crops(net, table, window, size: int) -> list:
    """The outputs (arrays) of ``net`` on the crops, resampled to ``size``, in batches side
    by side."""
    def run(batch):
        crops = resample_crops(table, window[batch], size)
        return [y.array for y in net.infer(crops)]

    outputs = parallel_map(run, parallel_slices(len(window), _CROP_BATCH),
                           backend.get_device_from_array(table))
    xp = backend.get_array_module(table)
    return [xp.concatenate(part) for part in zip(*outputs)]


def refine(rnet, table, bbox, thresh: float):
    """The second stage: R-Net rescores 24x24 crops of the candidates; those above
    ``thresh`` are suppressed (IoU 0.7), regressed and squared.

    Boxes that lie wholly outside the image have no crop and are dropped (facenet-pytorch
    fails on them).

    Args:
        rnet (~vision.models.detection.mtcnn.RNet): the net.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        bbox (array): float32 ``(R, 4)`` candidate boxes.
        thresh (float): the least R-Net probability of a box that is kept.

    Returns:
        array: float32 ``(R', 4)`` square candidate boxes.
    """
    bbox, window = _crop_boxes(table, bbox)
    if not len(bbox):
        return bbox
    offset, prob = _run_on_crops(rnet, table, window, 24)
    score = prob[:, 1]
    passed = score > numpy.float32(thresh)
    bbox, score, offset = bbox[passed], score[passed], offset[passed][:, [1, 0, 3, 2]]
    keep = suppress_by_iou(bbox, score, 0.7)
    return square_bbox(regress_bbox(bbox[keep], offset[keep], inclusive=True))


def output(onet, table, bbox, thresh: float):
    """The last stage: O-Net rescores 48x48 crops of the candidates and places their
    landmarks; those above ``thresh`` are regressed and suppressed by the overlap over the
    smaller area (0.7).

    Args:
        onet (~vision.models.detection.mtcnn.ONet): the net.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        bbox (array): float32 ``(R, 4)`` candidate boxes.
        thresh (float): the least O-Net probability of a face.

    Returns:
        tuple: float32 ``(K, 4)`` boxes ``(y_min, x_min, y_max, x_max)``, float32 ``(K,)``
        probabilities and float32 ``(K, 5, 2)`` landmarks ``(y, x)``, by decreasing
        probability.
    """
    xp = backend.get_array_module(table)
    bbox, window = _crop_boxes(table, bbox)
    if not len(bbox):
        return bbox, xp.zeros(0, dtype=numpy.float32), xp.zeros((0, 5, 2), dtype=numpy.float32)
    offset, landmark, prob = _run_on_crops(onet, table, window, 48)
    score = prob[:, 1]
    passed = score > numpy.float32(thresh)
    bbox, score = bbox[passed], score[passed]
    offset, landmark = offset[passed][:, [1, 0, 3, 2]], landmark[passed]
    size = bbox[:, 2:] - bbox[:, :2] + 1
    # landmark holds the five x, then the five y, relative to the crop.
    point = xp.stack([landmark[:, 5:], landmark[:, :5]], axis=2)
    point = point * size[:, None] + bbox[:, None, :2] - 1
    bbox = regress_bbox(bbox, offset, inclusive=True)
    keep = suppress_by_min_area(bbox, score, 0.7)
    return bbox[keep], score[keep], point[keep]
