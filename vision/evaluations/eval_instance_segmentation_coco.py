"""Average precision and recall of instance segmentations with the MS COCO protocol."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from vision.evaluations import _coco
from vision.evaluations._coco_result import chainercv_summary
from vision.evaluations._common import (
    as_areas,
    as_flags,
    as_labels,
    as_masks,
    as_scores,
    shortest,
    zip_images,
)
from vision.evaluations._masks import check_mask_sizes, mask_area, mask_intersection


def eval_instance_segmentation_coco(pred_masks: Iterable, pred_labels: Iterable,
                                    pred_scores: Iterable, gt_masks: Iterable,
                                    gt_labels: Iterable, gt_areas: Iterable | None = None,
                                    gt_crowdeds: Iterable | None = None) -> dict:
    """Evaluates instance segmentations with the evaluation code of MS COCO.

    The numbers are those of pycocotools' ``COCOeval`` with ``iouType='segm'``, computed by
    the vectorised re-implementation behind :func:`~vision.evaluations.eval_detection_coco`
    with mask IoUs: pixels in both masks over pixels in either (over the detection's pixels
    for a crowded object). pycocotools computes these ratios exactly from run-length
    encodings; here they are the same exact ratios of pixel counts, from a matrix product of
    the masks, and pycocotools is not needed.

    Args:
        pred_masks (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R, H, W)`.
        pred_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R,)`, in :math:`[0, \\#fg\\_class - 1]`.
        pred_scores (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R,)`.
        gt_masks (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R', H, W)`, of the size of the image's predicted masks.
        gt_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R',)`.
        gt_areas (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R',)`, the
            area of each object, which decides its area range. None: the mask areas are used
            and the area-dependent scores are not returned.
        gt_crowdeds (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R',)`. None: no object is crowded.

    As in ChainerCV (which pairs them with ``zip``), entries of an image's arrays beyond the
    shortest of its prediction (or ground truth) arrays are ignored.

    Returns:
        dict: the keys of :func:`~vision.evaluations.eval_detection_coco`, with the same
        meaning for masks.

    Raises:
        ValueError: If the inputs have different numbers of images, an image's predicted and
            ground truth masks differ in size, or a shape or value is wrong.
        TypeError: If an array has the wrong dtype.
    """
    fname = 'eval_instance_segmentation_coco'
    det = _coco.ObjectColumns('label', 'score', 'area')
    gt = _coco.ObjectColumns('label', 'area', 'crowd')
    pairs: list[tuple] = []
    n_det = n_gt = 0
    images = zip_images(fname, {
        'pred_masks': pred_masks, 'pred_labels': pred_labels, 'pred_scores': pred_scores,
        'gt_masks': gt_masks, 'gt_labels': gt_labels, 'gt_areas': gt_areas,
        'gt_crowdeds': gt_crowdeds})
    n_image = 0
    for i, (pred_mask, pred_label, pred_score, gt_mask, gt_label, gt_area, gt_crowded) in \
            enumerate(images):
        n_image += 1
        pred_mask, pred_label, pred_score = shortest([
            as_masks(fname, 'pred_masks', i, pred_mask),
            as_labels(fname, 'pred_labels', i, pred_label),
            as_scores(fname, 'pred_scores', i, pred_score)])
        gt_mask, gt_label, gt_area, gt_crowded = shortest([
            as_masks(fname, 'gt_masks', i, gt_mask), as_labels(fname, 'gt_labels', i, gt_label),
            None if gt_area is None else as_areas(fname, 'gt_areas', i, gt_area),
            None if gt_crowded is None else as_flags(fname, 'gt_crowdeds', i, gt_crowded)])
        check_mask_sizes(fname, i, pred_mask, gt_mask)
        if gt_crowded is None:
            gt_crowded = numpy.zeros(len(gt_label), bool)
        pred_area = mask_area(pred_mask)
        gt_pixels = mask_area(gt_mask)
        det_index, gt_index, iou = _mask_pairs(pred_mask, pred_label, pred_area, gt_mask,
                                               gt_label, gt_pixels, gt_crowded)
        pairs.append((det_index + n_det, gt_index + n_gt, iou))
        n_det += len(pred_label)
        n_gt += len(gt_label)
        det.add(i, label=pred_label, score=pred_score, area=pred_area)
        gt.add(i, label=gt_label, area=gt_pixels if gt_area is None else gt_area,
               crowd=gt_crowded)
    pairs.append((numpy.zeros(0, numpy.int64),) * 2 + (numpy.zeros(0),))
    evaluation = _coco.evaluate('segm', n_image, det.arrays(), gt.arrays(),
                                tuple(numpy.concatenate(column) for column in zip(*pairs)))
    protocol = {'metric': 'coco_instance_segmentation', 'iou_type': 'segm',
                'iou_threshs': tuple(float(t) for t in _coco.IOU_THRESHS),
                'recall_threshs': '101 points: 0, 0.01, ..., 1',
                'area_ranges': dict(_coco.AREA_RANGES),
                'areas': 'gt_areas' if gt_areas is not None else 'mask areas',
                'max_dets': _coco.MAX_DETS}
    return chainercv_summary(evaluation, gt_areas is not None, protocol)


def _mask_pairs(pred_mask: numpy.ndarray, pred_label: numpy.ndarray, pred_area: numpy.ndarray,
                gt_mask: numpy.ndarray, gt_label: numpy.ndarray, gt_area: numpy.ndarray,
                gt_crowded: numpy.ndarray) -> tuple[numpy.ndarray, ...]:
    """One image's pairs of a detection and an object of its label with an IoU of at least
    the lowest threshold: indices in the image and IoUs, as pycocotools computes them."""
    same = pred_label[:, None] == gt_label[None, :]
    rows = numpy.flatnonzero(same.any(axis=1))
    cols = numpy.flatnonzero(same.any(axis=0))
    intersection = mask_intersection(pred_mask[rows], gt_mask[cols])
    union = numpy.where(gt_crowded[cols], pred_area[rows, None],
                        pred_area[rows, None] + gt_area[cols] - intersection)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        iou = numpy.where(intersection > 0, intersection / union, 0.)
    det_index, gt_index = numpy.nonzero(same[numpy.ix_(rows, cols)] &
                                        (iou >= _coco.IOU_THRESHS[0]))
    return rows[det_index], cols[gt_index], iou[det_index, gt_index]
