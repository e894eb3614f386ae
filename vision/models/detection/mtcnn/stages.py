"""The three stages of MTCNN on one image: proposals from P-Net over the pyramid, refinement
by R-Net, and output boxes and landmarks from O-Net."""

from __future__ import annotations

import numpy

from framework import backend
from vision.models.detection.mtcnn.bbox_regression import cell_bbox, regress_bbox, square_bbox
from vision.models.detection.mtcnn.crops import crop_windows, resample_crops
from vision.models.detection.mtcnn.image_pyramid import level_size, pyramid_scales, scan_level
from vision.models.detection.mtcnn.suppression import suppress_by_iou, suppress_by_min_area

# Crops fed to R-Net or O-Net at once (facenet-pytorch's batch size).
_CROP_BATCH = 512


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
    bboxes, scores, offsets = [], [], []
    for scale in pyramid_scales(height, width, min_size, factor):
        y, x, score, offset = scan_level(pnet, table, level_size(height, width, scale), thresh)
        bbox = cell_bbox(y, x, scale)
        keep = suppress_by_iou(bbox, score, 0.5)
        bboxes.append(bbox[keep])
        scores.append(score[keep])
        offsets.append(offset[keep])
    if not bboxes:
        return xp.zeros((0, 4), dtype=numpy.float32)
    bbox, score, offset = (xp.concatenate(part) for part in (bboxes, scores, offsets))
    keep = suppress_by_iou(bbox, score, 0.7)
    return square_bbox(regress_bbox(bbox[keep], offset[keep], inclusive=False))


def _crop_boxes(table, bbox):
    """The boxes that cover some pixels of the image and their pixel ranges."""
    window, valid = crop_windows(bbox, table.shape[1] - 1, table.shape[2] - 1)
    return bbox[valid], window[valid]


def _run_on_crops(net, table, window, size: int) -> list:
    """The outputs (arrays) of ``net`` on the crops, resampled to ``size``, in batches."""
    outputs = []
    for start in range(0, len(window), _CROP_BATCH):
        crops = resample_crops(table, window[start:start + _CROP_BATCH], size)
        outputs.append([y.array for y in net.infer(crops)])
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
