"""Average precision and recall of detections with the MS COCO protocol."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from vision.evaluations import _coco
from vision.evaluations._coco_result import chainercv_summary
from vision.evaluations._common import (
    as_areas,
    as_flags,
    as_labels,
    as_scores,
    shortest,
    zip_images,
)
from vision.utils._validation import as_bbox


def eval_detection_coco(pred_bboxes: Iterable, pred_labels: Iterable, pred_scores: Iterable,
                        gt_bboxes: Iterable, gt_labels: Iterable,
                        gt_areas: Iterable | None = None,
                        gt_crowdeds: Iterable | None = None) -> dict:
    """Evaluates detections with the evaluation code of MS COCO.

    The numbers are those of pycocotools' ``COCOeval`` with ``iouType='bbox'`` on the
    annotations ChainerCV builds from the inputs (boxes converted to :math:`(x, y, w, h)` and
    rounded to 2 decimals, as in COCO's files), computed by a vectorised NumPy
    re-implementation; pycocotools is not needed. See :mod:`vision.evaluations._coco` for
    the matching rules: 10 IoU thresholds :math:`0.5, 0.55, \\ldots, 0.95`, 101-point
    interpolated precision, at most 1, 10 or 100 detections per image and class, crowded
    objects that any number of detections may match (IoU over the detection's area) without
    counting, and area ranges small (below :math:`32^2`), medium and large (above
    :math:`96^2`).

    Args:
        pred_bboxes (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R, 4)`,
            each row :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        pred_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R,)`, in :math:`[0, \\#fg\\_class - 1]`.
        pred_scores (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R,)`.
        gt_bboxes (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R', 4)`.
        gt_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R',)`.
        gt_areas (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R',)`, the
            area of each object (in COCO, of its segmentation), which decides its area range.
            None: the box areas are used and the area-dependent scores are not returned.
        gt_crowdeds (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R',)`. None: no object is crowded.

    As in ChainerCV (which pairs them with ``zip``), entries of an image's arrays beyond the
    shortest of its prediction (or ground truth) arrays are ignored.

    Returns:
        dict: with, for each of the keys below, a float64 array of shape
        :math:`(\\#fg\\_class,)` (the largest label present plus one) holding each class's
        value, NaN for a class in neither ``pred_labels`` nor ``gt_labels`` or without an
        object that counts; and under the key prefixed with ``m`` (``map/...``,
        ``mar/...``) the mean over the classes, NaN skipped:

        * ``ap/iou=0.50:0.95/area=all/max_dets=100``, ``ap/iou=0.50/area=all/max_dets=100``,
          ``ap/iou=0.75/area=all/max_dets=100``: average precision.
        * ``ar/iou=0.50:0.95/area=all/max_dets=1`` (and ``=10``, ``=100``): average recall.
        * Only if ``gt_areas`` is given: ``ap/iou=0.50:0.95/area=small/max_dets=100`` (and
          ``medium``, ``large``) and ``ar/iou=0.50:0.95/area=small/max_dets=100`` (and
          ``medium``, ``large``).

        and also

        * **existent_labels** (*numpy.ndarray*): the labels present, sorted.
        * **coco_eval** (:class:`~vision.evaluations._coco_result.COCOEvaluation`): the
          full precision and recall arrays under pycocotools' names (``params``, ``eval``,
          ``summarize()``), in place of ChainerCV's ``COCOeval`` object.
        * **protocol** (*dict*): IoU thresholds, area ranges, maximum detections and how
          boxes and areas were read.

    Raises:
        ValueError: If the inputs have different numbers of images, or a shape or value is
            wrong.
        TypeError: If an array has the wrong dtype.
    """
    fname = 'eval_detection_coco'
    det = _coco.ObjectColumns('label', 'score', 'area', box=(4,))
    gt = _coco.ObjectColumns('label', 'area', 'crowd', box=(4,))
    images = zip_images(fname, {
        'pred_bboxes': pred_bboxes, 'pred_labels': pred_labels, 'pred_scores': pred_scores,
        'gt_bboxes': gt_bboxes, 'gt_labels': gt_labels, 'gt_areas': gt_areas,
        'gt_crowdeds': gt_crowdeds})
    n_image = 0
    for i, (pred_bbox, pred_label, pred_score, gt_bbox, gt_label, gt_area, gt_crowded) in \
            enumerate(images):
        n_image += 1
        pred_bbox, pred_label, pred_score = shortest([
            as_bbox(fname, f'pred_bboxes[{i}]', pred_bbox, empty_means_none=True),
            as_labels(fname, 'pred_labels', i, pred_label),
            as_scores(fname, 'pred_scores', i, pred_score)])
        gt_bbox, gt_label, gt_area, gt_crowded = shortest([
            as_bbox(fname, f'gt_bboxes[{i}]', gt_bbox, empty_means_none=True),
            as_labels(fname, 'gt_labels', i, gt_label),
            None if gt_area is None else as_areas(fname, 'gt_areas', i, gt_area),
            None if gt_crowded is None else as_flags(fname, 'gt_crowdeds', i, gt_crowded)])
        box, area = _coco_box(pred_bbox)
        det.add(i, label=pred_label, score=pred_score, area=area, box=box)
        box, area = _coco_box(gt_bbox)
        gt.add(i, label=gt_label, box=box, area=area if gt_area is None else gt_area,
               crowd=numpy.zeros(len(gt_label), bool) if gt_crowded is None else gt_crowded)
    det, gt = det.arrays(), gt.arrays()
    pairs = _coco.similar_pairs(det, gt, lambda d, g: _box_iou(det['box'][d], gt['box'][g],
                                                               gt['crowd'][g]))
    evaluation = _coco.evaluate('bbox', n_image, det, gt, pairs)
    protocol = {'metric': 'coco_detection', 'iou_type': 'bbox',
                'iou_threshs': tuple(float(t) for t in _coco.IOU_THRESHS),
                'recall_threshs': '101 points: 0, 0.01, ..., 1',
                'area_ranges': dict(_coco.AREA_RANGES),
                'areas': 'gt_areas' if gt_areas is not None else 'box areas',
                'max_dets': _coco.MAX_DETS,
                'bbox': 'rounded to 2 decimals as (x, y, w, h), as ChainerCV passes them to '
                        'pycocotools'}
    return chainercv_summary(evaluation, gt_areas is not None, protocol)


def _coco_box(bbox: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Boxes as ChainerCV hands them to pycocotools: ``(x, y, w, h)`` rounded to 2 decimals,
    computed in the boxes' own dtype; and their unrounded areas. Both float64."""
    box = bbox[:, [1, 0, 3, 2]]
    box[:, 2:] -= box[:, :2]
    area = (box[:, 3] * box[:, 2]).astype(numpy.float64)
    return numpy.round(box, 2).astype(numpy.float64), area


def _box_iou(det: numpy.ndarray, gt: numpy.ndarray, crowd: numpy.ndarray) -> numpy.ndarray:
    """Elementwise IoU of ``(x, y, w, h)`` boxes with the operations of pycocotools' C code;
    for a crowded object, the intersection over the detection's area."""
    with numpy.errstate(divide='ignore', invalid='ignore'):
        width = numpy.minimum(det[:, 2] + det[:, 0], gt[:, 2] + gt[:, 0]) - \
            numpy.maximum(det[:, 0], gt[:, 0])
        height = numpy.minimum(det[:, 3] + det[:, 1], gt[:, 3] + gt[:, 1]) - \
            numpy.maximum(det[:, 1], gt[:, 1])
        intersection = width * height
        det_area = det[:, 2] * det[:, 3]
        union = numpy.where(crowd, det_area, det_area + gt[:, 2] * gt[:, 3] - intersection)
        iou = intersection / union
    iou[(width <= 0) | (height <= 0)] = 0
    return iou
