"""Average precision and recall of keypoint detections with the MS COCO protocol."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from vision.evaluations import _coco
from vision.evaluations._coco_result import chainercv_summary
from vision.evaluations._common import (
    as_areas,
    as_flags,
    as_labels,
    as_point_flags,
    as_points,
    as_scores,
    shortest,
    zip_images,
)
from vision.utils._validation import as_bbox

# pycocotools' Params.kpt_oks_sigmas: the spread of each of COCO's 17 person keypoints.
_SIGMAS = numpy.array([.26, .25, .25, .35, .35, .79, .79, .72, .72, .62, .62, 1.07, 1.07,
                      .87, .87, .89, .89]) / 10.0
_VARIANCES = (_SIGMAS * 2) ** 2
# Pairs of a detection and an object scored at once: about 1 KiB of temporaries each.
_PAIR_CHUNK = 1 << 16


def eval_keypoint_detection_coco(pred_points: Iterable, pred_labels: Iterable,
                                 pred_scores: Iterable, gt_points: Iterable,
                                 gt_visibles: Iterable, gt_bboxes: Iterable | None = None,
                                 gt_labels: Iterable | None = None,
                                 gt_areas: Iterable | None = None,
                                 gt_crowdeds: Iterable | None = None) -> dict:
    """Evaluates keypoint detections with the evaluation code of MS COCO.

    The numbers are those of pycocotools' ``COCOeval`` with ``iouType='keypoints'`` on the
    annotations ChainerCV builds from the inputs, computed by the vectorised
    re-implementation behind :func:`~vision.evaluations.eval_detection_coco`; pycocotools
    is not needed. A detection and an object are compared by their object keypoint
    similarity (OKS): the mean over the object's visible keypoints of
    :math:`\\exp(-d^2 / (2 s (2 \\sigma)^2))`, with :math:`d` the distance between the
    predicted and true point, :math:`s` the object's area and :math:`\\sigma` COCO's spread
    of the keypoint (``protocol['sigmas']`` in the result). For an object without a visible
    keypoint, :math:`d` is each predicted point's distance to its box enlarged by the box's
    size on every side, averaged over all 17 keypoints; such an object is ignored (a
    detection it takes counts neither way) but, unlike a crowded one, takes one detection
    only. The thresholds are :math:`0.5, 0.55, \\ldots, 0.95`, at most 20 detections per
    image and class count, and the area ranges are all, medium (between :math:`32^2` and
    :math:`96^2`) and large.

    Where ChainerCV 0.13 differs from COCO, this follows COCO: an object without a visible
    keypoint is ignored (ChainerCV counts keypoints whose :math:`x` is positive), and a
    class only in the ground truth is evaluated, with AP 0 (ChainerCV evaluates only the
    predicted classes, and fails without predictions).

    Args:
        pred_points (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R, 17, 2)`,
            each point :math:`(y, x)`, in the order of COCO's person keypoints.
        pred_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R,)`, in :math:`[0, \\#fg\\_class - 1]`.
        pred_scores (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R,)`,
            which rank the detections (a score per object, not per keypoint).
        gt_points (iterable of numpy.ndarray): :math:`N` arrays of shape
            :math:`(R', 17, 2)`.
        gt_visibles (iterable of numpy.ndarray): :math:`N` boolean (or integer, nonzero
            meaning visible) arrays of shape :math:`(R', 17)`.
        gt_bboxes (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R', 4)`,
            each row :math:`(y_{min}, x_{min}, y_{max}, x_{max})`, used for objects without
            a visible keypoint. None: the box around all 17 points of each object.
        gt_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R',)`. None: every object has label 0 (person).
        gt_areas (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R',)`, the
            area of each object (in COCO, of its segmentation), the scale of its OKS and
            what decides its area range. None: the area of the box around all 17 points is
            used and the area-dependent scores are not returned.
        gt_crowdeds (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R',)`. None: no object is crowded.

    An image without objects may give its points as an empty array of any shape with no
    row, such as ChainerCV's :math:`(0, 0, 2)`. As in ChainerCV (which pairs them with
    ``zip``), entries of an image's arrays beyond the shortest of its prediction (or ground
    truth) arrays are ignored.

    Returns:
        dict: with, for each of the keys below, a float64 array of shape
        :math:`(\\#fg\\_class,)` (the largest label present plus one) holding each class's
        value, NaN for a class in neither ``pred_labels`` nor ``gt_labels`` or without an
        object that counts; and under the key prefixed with ``m`` (``map/...``,
        ``mar/...``) the mean over the classes, NaN skipped:

        * ``ap/iou=0.50:0.95/area=all/max_dets=20``, ``ap/iou=0.50/area=all/max_dets=20``,
          ``ap/iou=0.75/area=all/max_dets=20``: average precision.
        * ``ar/iou=0.50:0.95/area=all/max_dets=20``, ``ar/iou=0.50/area=all/max_dets=20``,
          ``ar/iou=0.75/area=all/max_dets=20``: average recall.
        * Only if ``gt_areas`` is given: ``ap/iou=0.50:0.95/area=medium/max_dets=20`` (and
          ``large``) and ``ar/iou=0.50:0.95/area=medium/max_dets=20`` (and ``large``).

        and also

        * **existent_labels** (*numpy.ndarray*): the labels present, sorted.
        * **coco_eval** (:class:`~vision.evaluations._coco_result.COCOEvaluation`): the
          full precision and recall arrays under pycocotools' names (``params``, ``eval``,
          ``summarize()``), in place of ChainerCV's ``COCOeval`` object.
        * **protocol** (*dict*): the sigmas, OKS thresholds, area ranges, maximum
          detections and how boxes and areas were read.

    Raises:
        ValueError: If the inputs have different numbers of images, or a shape or value is
            wrong (points must have COCO's 17 keypoints).
        TypeError: If an array has the wrong dtype.
    """
    fname = 'eval_keypoint_detection_coco'
    n_point = len(_SIGMAS)
    det = _coco.ObjectColumns('label', 'score', 'area', point=(n_point, 2))
    gt = _coco.ObjectColumns('label', 'area', 'crowd', 'ignore', point=(n_point, 2),
                             visible=(n_point,), lower=(2,), upper=(2,))
    images = zip_images(fname, {
        'pred_points': pred_points, 'pred_labels': pred_labels, 'pred_scores': pred_scores,
        'gt_points': gt_points, 'gt_visibles': gt_visibles, 'gt_bboxes': gt_bboxes,
        'gt_labels': gt_labels, 'gt_areas': gt_areas, 'gt_crowdeds': gt_crowdeds})
    n_image = 0
    for i, (pred_point, pred_label, pred_score, gt_point, gt_visible, gt_bbox, gt_label,
            gt_area, gt_crowded) in enumerate(images):
        n_image += 1
        pred_point, pred_label, pred_score = shortest([
            as_points(fname, 'pred_points', i, pred_point, n_point),
            as_labels(fname, 'pred_labels', i, pred_label),
            as_scores(fname, 'pred_scores', i, pred_score)])
        gt_point, gt_visible, gt_bbox, gt_label, gt_area, gt_crowded = shortest([
            as_points(fname, 'gt_points', i, gt_point, n_point),
            as_point_flags(fname, 'gt_visibles', i, gt_visible, n_point),
            None if gt_bbox is None else as_bbox(fname, f'gt_bboxes[{i}]', gt_bbox,
                                                 empty_means_none=True),
            None if gt_label is None else as_labels(fname, 'gt_labels', i, gt_label),
            None if gt_area is None else as_areas(fname, 'gt_areas', i, gt_area),
            None if gt_crowded is None else as_flags(fname, 'gt_crowdeds', i, gt_crowded)])
        n_gt = len(gt_point)
        corner, size = _point_box(pred_point)
        det.add(i, label=pred_label, score=pred_score, area=size[:, 0] * size[:, 1],
                point=pred_point)
        corner, size = _point_box(gt_point)
        area = size[:, 0] * size[:, 1]
        if gt_bbox is not None:
            corner, size = gt_bbox[:, :2], gt_bbox[:, 2:] - gt_bbox[:, :2]
        gt.add(i, label=numpy.zeros(n_gt, numpy.int64) if gt_label is None else gt_label,
               area=area if gt_area is None else gt_area,
               crowd=numpy.zeros(n_gt, bool) if gt_crowded is None else gt_crowded,
               ignore=~gt_visible.any(axis=1), point=gt_point, visible=gt_visible,
               lower=corner - size, upper=corner + size * 2)
    det, gt = det.arrays(), gt.arrays()
    pairs = _coco.similar_pairs(det, gt, lambda d, g: _oks(det['point'][d], gt, g),
                                _PAIR_CHUNK)
    evaluation = _coco.evaluate('keypoints', n_image, det, gt, pairs)
    protocol = {'metric': 'coco_keypoint_detection', 'iou_type': 'keypoints',
                'sigmas': tuple(float(s) for s in _SIGMAS),
                'iou_threshs': tuple(float(t) for t in _coco.IOU_THRESHS),
                'recall_threshs': '101 points: 0, 0.01, ..., 1',
                'area_ranges': dict(_coco.KEYPOINT_AREA_RANGES),
                'areas': 'gt_areas' if gt_areas is not None else 'boxes around the points',
                'bbox': 'gt_bboxes' if gt_bboxes is not None else 'boxes around the points',
                'max_dets': _coco.KEYPOINT_MAX_DETS}
    return chainercv_summary(evaluation, gt_areas is not None, protocol)


def _point_box(point: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The corner :math:`(y_{min}, x_{min})` and size :math:`(h, w)` of the box around each
    object's points, ``(R, 2)`` each, computed in the points' dtype as ChainerCV does."""
    corner = point.min(axis=1)
    return corner, point.max(axis=1) - corner


def _oks(det_point: numpy.ndarray, gt: dict, gt_index: numpy.ndarray) -> numpy.ndarray:
    """The OKS of :math:`P` pairs, float64 of shape :math:`(P,)`, with the operations of
    pycocotools' ``computeOks``.

    Args:
        det_point (numpy.ndarray): The detections' points, float64 :math:`(P, 17, 2)`.
        gt (dict): The objects' ``point``, ``visible``, ``lower`` and ``upper`` corners of
            the enlarged box and ``area``.
        gt_index (numpy.ndarray): The object of each pair, :math:`(P,)`.
    """
    visible = gt['visible'][gt_index]
    labelled = visible.any(axis=1)
    outside = numpy.maximum(0, gt['lower'][gt_index, None] - det_point) + \
        numpy.maximum(0, det_point - gt['upper'][gt_index, None])
    delta = numpy.where(labelled[:, None, None], det_point - gt['point'][gt_index], outside)
    scale = gt['area'][gt_index] + numpy.spacing(1)
    error = (delta[..., 1] ** 2 + delta[..., 0] ** 2) / _VARIANCES / scale[:, None] / 2
    counted = visible | ~labelled[:, None]
    return numpy.where(counted, numpy.exp(-error), 0).sum(axis=1) / counted.sum(axis=1)
