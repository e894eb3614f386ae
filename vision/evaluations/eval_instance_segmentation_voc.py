"""Average precision of instance segmentations with the PASCAL VOC protocol (as in FCIS)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from vision.evaluations._common import (
    as_labels,
    as_masks,
    as_scores,
    as_threshold,
    check_lengths,
    nanmean,
    zip_images,
)
from vision.evaluations._masks import check_mask_sizes, pair_mask_iou
from vision.evaluations._voc import VOCAccumulator, image_order, match_image
from vision.evaluations.eval_detection_voc import calc_detection_voc_ap


def eval_instance_segmentation_voc(pred_masks: Iterable, pred_labels: Iterable,
                                   pred_scores: Iterable, gt_masks: Iterable,
                                   gt_labels: Iterable, iou_thresh: float = 0.5,
                                   use_07_metric: bool = False) -> dict:
    """Calculates average precisions of masks with the evaluation code of PASCAL VOC.

    The same protocol as :func:`~vision.evaluations.eval_detection_voc`, with the IoU of
    masks (pixels in both over pixels in either) in place of that of boxes and no difficult
    objects, as in the evaluation code of FCIS.

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
        iou_thresh (float): A prediction is correct if its IoU with the ground truth is at
            least this value.
        use_07_metric (bool): Whether to use the 11-point metric of PASCAL VOC 2007.

    Returns:
        dict: with keys

        * **ap** (*numpy.ndarray*): float64 of shape :math:`(\\#fg\\_class,)`, the average
          precision of each class; NaN for a class in neither ``pred_labels`` nor
          ``gt_labels`` or without ground truth.
        * **map** (*float*): the mean of ``ap`` over the classes whose value is not NaN.
        * **protocol** (*dict*): how the numbers were computed.

    Raises:
        ValueError: If the inputs have different numbers of images, an image's arrays have
            different numbers of objects or masks of different sizes, or a shape is wrong.
        TypeError: If an array has the wrong dtype.
    """
    prec, rec = calc_instance_segmentation_voc_prec_rec(
        pred_masks, pred_labels, pred_scores, gt_masks, gt_labels, iou_thresh)
    ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
    return {'ap': ap, 'map': nanmean(ap),
            'protocol': {'metric': 'voc_instance_segmentation',
                         'iou_thresh': float(iou_thresh),
                         'use_07_metric': bool(use_07_metric),
                         'interpolation': '11-point' if use_07_metric else 'all-point'}}


def calc_instance_segmentation_voc_prec_rec(pred_masks: Iterable, pred_labels: Iterable,
                                            pred_scores: Iterable, gt_masks: Iterable,
                                            gt_labels: Iterable, iou_thresh: float = 0.5
                                            ) -> tuple[list, list]:
    """Calculates precision and recall of masks with the evaluation code of PASCAL VOC.

    Matching and ranking are those of
    :func:`~vision.evaluations.calc_detection_voc_prec_rec`, with mask IoUs computed in
    float64. Two empty masks have a NaN IoU, which (as in ChainerCV) counts as a match.

    Args:
        pred_masks (iterable of numpy.ndarray): As in :func:`eval_instance_segmentation_voc`.
        pred_labels (iterable of numpy.ndarray): As in
            :func:`eval_instance_segmentation_voc`.
        pred_scores (iterable of numpy.ndarray): As in
            :func:`eval_instance_segmentation_voc`.
        gt_masks (iterable of numpy.ndarray): As in :func:`eval_instance_segmentation_voc`.
        gt_labels (iterable of numpy.ndarray): As in :func:`eval_instance_segmentation_voc`.
        iou_thresh (float): As in :func:`eval_instance_segmentation_voc`.

    Returns:
        tuple of two lists: ``prec`` and ``rec`` of length :math:`\\#fg\\_class`, as
        :func:`~vision.evaluations.calc_detection_voc_prec_rec` returns them.

    Raises:
        ValueError: As :func:`eval_instance_segmentation_voc`.
        TypeError: As :func:`eval_instance_segmentation_voc`.
    """
    fname = 'calc_instance_segmentation_voc_prec_rec'
    iou_thresh = as_threshold(fname, 'iou_thresh', iou_thresh)
    accumulator = VOCAccumulator()
    images = zip_images(fname, {
        'pred_masks': pred_masks, 'pred_labels': pred_labels, 'pred_scores': pred_scores,
        'gt_masks': gt_masks, 'gt_labels': gt_labels})
    for i, (pred_mask, pred_label, pred_score, gt_mask, gt_label) in enumerate(images):
        pred_mask = as_masks(fname, 'pred_masks', i, pred_mask)
        pred_label = as_labels(fname, 'pred_labels', i, pred_label)
        pred_score = as_scores(fname, 'pred_scores', i, pred_score)
        gt_mask = as_masks(fname, 'gt_masks', i, gt_mask)
        gt_label = as_labels(fname, 'gt_labels', i, gt_label)
        check_lengths(fname, i, {'pred_masks': pred_mask, 'pred_labels': pred_label,
                                 'pred_scores': pred_score})
        check_lengths(fname, i, {'gt_masks': gt_mask, 'gt_labels': gt_label})
        check_mask_sizes(fname, i, pred_mask, gt_mask)
        order = image_order(pred_score)
        iou = pair_mask_iou(pred_mask[order], gt_mask)
        match = match_image(iou, pred_label[order], gt_label,
                            numpy.zeros(len(gt_label), dtype=bool), iou_thresh)
        accumulator.add(i, order, pred_label[order], pred_score[order], match, gt_label,
                        numpy.zeros(len(gt_label), dtype=bool))
    return accumulator.prec_rec()

