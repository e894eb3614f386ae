"""The detections of region-based detectors: per-class boxes and probabilities of regions
reduced, class by class, by non-maximum suppression."""

from __future__ import annotations

import numpy

from vision.utils import batched_non_maximum_suppression


def suppress_per_class(cls_bbox: numpy.ndarray, prob: numpy.ndarray, candidate: numpy.ndarray,
                       nms_thresh: float) -> tuple[numpy.ndarray, ...]:
    """The candidate detections that survive non-maximum suppression among those of their
    class (ChainerCV's detectors loop over the classes; this runs them at once).

    Args:
        cls_bbox (numpy.ndarray): ``(R, n_class, 4)``, the box of each region for each class
            (class 0 the background).
        prob (numpy.ndarray): ``(R, n_class)``, the probability of each class.
        candidate (numpy.ndarray): ``(R, n_class - 1)`` bool, the (region, foreground class)
            pairs that may be detections (those scored above a threshold).
        nms_thresh (float): the IoU at which a detection suppresses another of its class.

    Returns:
        tuple: ``bbox`` ``(R', 4)`` float32, ``label`` ``(R',)`` int32 (the foreground class,
        from 0) and ``score`` ``(R',)`` float32, ordered by label, then by decreasing score.
    """
    roi_index, label = numpy.nonzero(candidate)
    bbox = cls_bbox[roi_index, label + 1]
    score = prob[roi_index, label + 1]
    keep = batched_non_maximum_suppression(bbox, score, label, nms_thresh)
    keep = keep[numpy.lexsort((numpy.arange(len(keep)), label[keep]))]
    return (bbox[keep].astype(numpy.float32).reshape((-1, 4)),
            label[keep].astype(numpy.int32), score[keep].astype(numpy.float32))
