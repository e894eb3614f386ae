"""PASCAL VOC matching and precision-recall curves, shared by boxes and instance masks.

Per image and class, predictions are taken in descending score order; each one is assigned
the ground truth object it overlaps most (the first such object on ties) if that IoU is at
least the threshold. The first prediction assigned to an object is a true positive, later
ones are false positives, and predictions assigned to a *difficult* object are ignored. Over
the whole dataset, each class's predictions are then ranked by score into a precision-recall
curve.

Ties in scores are broken as ChainerCV's ``argsort()[::-1]`` breaks them for the small arrays
its tests use (an ascending stable sort, reversed): within an image, the later prediction is
matched first; in the dataset ranking, the later image comes first and, within an image, the
earlier prediction.
"""

from __future__ import annotations

import numpy


def image_order(score: numpy.ndarray) -> numpy.ndarray:
    """The order in which one image's predictions are matched: descending score, later first."""
    return numpy.lexsort((-numpy.arange(len(score)), -score))


def match_image(iou: numpy.ndarray, pred_label: numpy.ndarray, gt_label: numpy.ndarray,
                gt_difficult: numpy.ndarray, iou_thresh: float) -> numpy.ndarray:
    """Matches one image's predictions, given in :func:`image_order`, to its ground truth.

    Args:
        iou (~numpy.ndarray): IoUs of shape :math:`(R, R')` of the predictions (rows, in
            matching order) with the ground truth objects (columns).
        pred_label (~numpy.ndarray): The labels of the predictions, shape :math:`(R,)`.
        gt_label (~numpy.ndarray): The labels of the objects, shape :math:`(R',)`.
        gt_difficult (~numpy.ndarray): Boolean, shape :math:`(R',)`.
        iou_thresh (float): The least IoU of a match.

    Returns:
        ~numpy.ndarray: int8 of shape :math:`(R,)`: 1 for a true positive, 0 for a false
        positive, -1 for a prediction ignored because it found a difficult object.
    """
    match = numpy.zeros(len(pred_label), dtype=numpy.int8)
    if iou.size == 0:
        return match
    same = pred_label[:, None] == gt_label[None, :]
    iou = numpy.where(same, iou, -numpy.inf)
    gt_index = iou.argmax(axis=1)
    best = iou[numpy.arange(len(iou)), gt_index]
    # As in ChainerCV, a NaN IoU (two empty masks) is not below the threshold: it matches.
    hit = same.any(axis=1) & ~(best < iou_thresh)
    difficult = hit & gt_difficult[gt_index]
    match[difficult] = -1
    claim = numpy.flatnonzero(hit & ~difficult)
    _, first = numpy.unique(gt_index[claim], return_index=True)
    match[claim[first]] = 1
    return match


class VOCAccumulator:
    """Collects per-image matches and turns them into per-class precision and recall."""

    def __init__(self) -> None:
        self._label: list[numpy.ndarray] = []
        self._score: list[numpy.ndarray] = []
        self._match: list[numpy.ndarray] = []
        self._image: list[numpy.ndarray] = []
        self._index: list[numpy.ndarray] = []
        self._gt_label: list[numpy.ndarray] = []
        self._positive: list[numpy.ndarray] = []

    def add(self, image: int, order: numpy.ndarray, pred_label: numpy.ndarray,
            pred_score: numpy.ndarray, match: numpy.ndarray, gt_label: numpy.ndarray,
            gt_difficult: numpy.ndarray) -> None:
        """Adds one image; the prediction arrays are in matching ``order``."""
        self._label.append(pred_label)
        self._score.append(pred_score)
        self._match.append(match)
        self._image.append(numpy.full(len(order), image))
        self._index.append(order)
        self._gt_label.append(gt_label)
        self._positive.append(gt_label[~gt_difficult])

    def prec_rec(self) -> tuple[list, list]:
        """Per-class precision and recall, as :func:`calc_detection_voc_prec_rec` returns."""
        label = _concatenate(self._label, numpy.int64)
        seen = numpy.union1d(label, _concatenate(self._gt_label, numpy.int64))
        if seen.size == 0:
            return [], []
        n_class = int(seen.max()) + 1
        n_pos = numpy.bincount(_concatenate(self._positive, numpy.int64), minlength=n_class)
        order = numpy.lexsort((_concatenate(self._index, numpy.int64),
                               -_concatenate(self._image, numpy.int64),
                               -_concatenate(self._score, numpy.float64), label))
        match = _concatenate(self._match, numpy.int8)[order]
        bounds = numpy.searchsorted(label[order], numpy.arange(n_class + 1))
        prec: list = [None] * n_class
        rec: list = [None] * n_class
        for lb in seen:
            match_l = match[bounds[lb]:bounds[lb + 1]]
            tp = numpy.cumsum(match_l == 1)
            fp = numpy.cumsum(match_l == 0)
            with numpy.errstate(divide='ignore', invalid='ignore'):
                prec[lb] = tp / (fp + tp)
            if n_pos[lb] > 0:
                rec[lb] = tp / n_pos[lb]
        return prec, rec


def _concatenate(arrays: list[numpy.ndarray], dtype) -> numpy.ndarray:
    return numpy.concatenate([numpy.zeros(0, dtype), *arrays]).astype(dtype, copy=False)
