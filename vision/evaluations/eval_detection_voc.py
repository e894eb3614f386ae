"""Average precision of detections with the PASCAL VOC protocol."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

from vision.evaluations._common import (
    as_flags,
    as_labels,
    as_scores,
    as_threshold,
    check_lengths,
    nanmean,
    zip_images,
)
from vision.evaluations._voc import VOCAccumulator, image_order, match_image
from vision.utils._validation import as_bbox
from vision.utils.bbox import bbox_iou


def eval_detection_voc(pred_bboxes: Iterable, pred_labels: Iterable, pred_scores: Iterable,
                       gt_bboxes: Iterable, gt_labels: Iterable,
                       gt_difficults: Iterable | None = None, iou_thresh: float = 0.5,
                       use_07_metric: bool = False) -> dict:
    """Calculates average precisions with the evaluation code of PASCAL VOC.

    Predicted boxes of :math:`N` images are matched to the ground truth class by class (see
    :func:`calc_detection_voc_prec_rec`) and each class's precision-recall curve is summarised
    by its average precision (see :func:`calc_detection_voc_ap`).

    Args:
        pred_bboxes (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R, 4)`,
            each row :math:`(y_{min}, x_{min}, y_{max}, x_{max})`. :math:`R` may differ
            between images.
        pred_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R,)`, in :math:`[0, \\#fg\\_class - 1]`.
        pred_scores (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R,)`,
            the confidence of each prediction.
        gt_bboxes (iterable of numpy.ndarray): :math:`N` arrays of shape :math:`(R', 4)`.
        gt_labels (iterable of numpy.ndarray): :math:`N` integer arrays of shape
            :math:`(R',)`.
        gt_difficults (iterable of numpy.ndarray): :math:`N` boolean arrays of shape
            :math:`(R',)` marking difficult objects, which neither count as positives nor
            make a prediction that finds them a false positive. None: no object is difficult.
        iou_thresh (float): A prediction is correct if its IoU with the ground truth is at
            least this value.
        use_07_metric (bool): Whether to use the 11-point metric of PASCAL VOC 2007.

    Returns:
        dict: with keys

        * **ap** (*numpy.ndarray*): float64 of shape :math:`(\\#fg\\_class,)`, the average
          precision of each class; NaN for a class that is in neither ``pred_labels`` nor
          ``gt_labels`` or that has no positive ground truth object.
        * **map** (*float*): the mean of ``ap`` over the classes whose value is not NaN.
        * **protocol** (*dict*): how the numbers were computed (metric name, IoU
          threshold, interpolation, box convention).

    Raises:
        ValueError: If the inputs have different numbers of images, an image's arrays have
            different numbers of objects, or a shape or value is wrong.
        TypeError: If an array has the wrong dtype.
    """
    prec, rec = calc_detection_voc_prec_rec(
        pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults,
        iou_thresh=iou_thresh)
    ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
    return {'ap': ap, 'map': nanmean(ap),
            'protocol': {'metric': 'voc_detection', 'iou_thresh': float(iou_thresh),
                         'use_07_metric': bool(use_07_metric),
                         'interpolation': '11-point' if use_07_metric else 'all-point',
                         'bbox_convention': 'integer pixels: 1 is added to y_max and x_max '
                                            'before computing IoUs'}}


def calc_detection_voc_prec_rec(pred_bboxes: Iterable, pred_labels: Iterable,
                                pred_scores: Iterable, gt_bboxes: Iterable,
                                gt_labels: Iterable, gt_difficults: Iterable | None = None,
                                iou_thresh: float = 0.5) -> tuple[list, list]:
    """Calculates precision and recall with the evaluation code of PASCAL VOC.

    In each image and for each class, the predictions are taken in descending score order
    and each is assigned the ground truth box it overlaps most if that IoU is at least
    ``iou_thresh``. The first prediction assigned to a box is a true positive; a later one,
    or one assigned to nothing, is a false positive; one assigned to a difficult box is
    ignored. As in VOC's code, boxes are integer pixel coordinates: IoUs are computed after
    adding 1 to :math:`y_{max}` and :math:`x_{max}`. The predictions of a class over all
    images are then ranked by score (ties: see :mod:`vision.evaluations._voc`).

    Args:
        pred_bboxes (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        pred_labels (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        pred_scores (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        gt_bboxes (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        gt_labels (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        gt_difficults (iterable of numpy.ndarray): As in :func:`eval_detection_voc`.
        iou_thresh (float): As in :func:`eval_detection_voc`.

    Returns:
        tuple of two lists: ``prec`` and ``rec``, each of length :math:`\\#fg\\_class` (the
        largest label in the inputs plus one; empty lists if there is no object at all).

        * ``prec[l]``: float64 array, the precision after each of the ranked predictions of
          class :math:`l` (NaN while all of them are ignored); None if :math:`l` is in
          neither ``pred_labels`` nor ``gt_labels``.
        * ``rec[l]``: float64 array, the recall after each ranked prediction; None if
          class :math:`l` has no object that is not difficult.

    Raises:
        ValueError: As :func:`eval_detection_voc`.
        TypeError: As :func:`eval_detection_voc`.
    """
    fname = 'calc_detection_voc_prec_rec'
    iou_thresh = as_threshold(fname, 'iou_thresh', iou_thresh)
    accumulator = VOCAccumulator()
    images = zip_images(fname, {
        'pred_bboxes': pred_bboxes, 'pred_labels': pred_labels, 'pred_scores': pred_scores,
        'gt_bboxes': gt_bboxes, 'gt_labels': gt_labels, 'gt_difficults': gt_difficults})
    for i, (pred_bbox, pred_label, pred_score, gt_bbox, gt_label, gt_difficult) in \
            enumerate(images):
        pred_bbox = as_bbox(fname, f'pred_bboxes[{i}]', pred_bbox, empty_means_none=True)
        pred_label = as_labels(fname, 'pred_labels', i, pred_label)
        pred_score = as_scores(fname, 'pred_scores', i, pred_score)
        gt_bbox = as_bbox(fname, f'gt_bboxes[{i}]', gt_bbox, empty_means_none=True)
        gt_label = as_labels(fname, 'gt_labels', i, gt_label)
        gt_difficult = (numpy.zeros(len(gt_bbox), dtype=bool) if gt_difficult is None
                        else as_flags(fname, 'gt_difficults', i, gt_difficult))
        check_lengths(fname, i, {'pred_bboxes': pred_bbox, 'pred_labels': pred_label,
                                 'pred_scores': pred_score})
        check_lengths(fname, i, {'gt_bboxes': gt_bbox, 'gt_labels': gt_label,
                                 'gt_difficults': gt_difficult})
        order = image_order(pred_score)
        iou = bbox_iou(_integer_pixels(pred_bbox[order]), _integer_pixels(gt_bbox))
        match = match_image(iou, pred_label[order], gt_label, gt_difficult, iou_thresh)
        accumulator.add(i, order, pred_label[order], pred_score[order], match, gt_label,
                        gt_difficult)
    return accumulator.prec_rec()


def calc_detection_voc_ap(prec: Sequence, rec: Sequence,
                          use_07_metric: bool = False) -> numpy.ndarray:
    """Calculates average precisions from precisions and recalls, as PASCAL VOC does.

    Without ``use_07_metric``, the average precision is the area under the precision-recall
    curve after making precision non-increasing in recall (VOC 2010 onwards). With it, it is
    the mean of the largest precision at recall at least :math:`0, 0.1, \\ldots, 1` (VOC
    2007). A NaN precision counts as 0.

    Args:
        prec (sequence of numpy.ndarray): ``prec[l]`` is the precision curve of class
            :math:`l`, or None.
        rec (sequence of numpy.ndarray): ``rec[l]`` is the recall curve of class :math:`l`,
            of the length of ``prec[l]``, or None.
        use_07_metric (bool): Whether to use the 11-point metric of PASCAL VOC 2007.

    Returns:
        ~numpy.ndarray: float64 of shape :math:`(\\#fg\\_class,)`, where ``#fg_class`` is
        ``len(prec)``: the average precision of each class; NaN where ``prec[l]`` or
        ``rec[l]`` is None.

    Raises:
        ValueError: If ``prec`` and ``rec`` differ in length, or a class's curves in shape.
    """
    fname = 'calc_detection_voc_ap'
    if len(prec) != len(rec):
        raise ValueError(f'{fname}: prec and rec must have one entry per class, but have '
                         f'{len(prec)} and {len(rec)}')
    ap = numpy.full(len(prec), numpy.nan)
    for lb, (prec_l, rec_l) in enumerate(zip(prec, rec)):
        if prec_l is None or rec_l is None:
            continue
        prec_l = numpy.nan_to_num(numpy.asarray(prec_l, dtype=numpy.float64))
        rec_l = numpy.asarray(rec_l, dtype=numpy.float64)
        if prec_l.ndim != 1 or prec_l.shape != rec_l.shape:
            raise ValueError(f'{fname}: prec[{lb}] and rec[{lb}] must be 1-dimensional '
                             f'arrays of one shape, but got shapes {prec_l.shape} and '
                             f'{rec_l.shape}')
        ap[lb] = _ap_07(prec_l, rec_l) if use_07_metric else _ap_area(prec_l, rec_l)
    return ap


def _ap_07(prec: numpy.ndarray, rec: numpy.ndarray) -> float:
    """The mean of the best precision at recall >= 0, 0.1, ..., 1, summed in VOC's order."""
    reached = rec[None, :] >= numpy.arange(0., 1.1, 0.1)[:, None]
    best = numpy.where(reached, prec[None, :], 0.).max(axis=1, initial=0.)
    return numpy.add.accumulate(best / 11)[-1]


def _ap_area(prec: numpy.ndarray, rec: numpy.ndarray) -> float:
    """The area under the precision-recall curve made non-increasing."""
    mpre = numpy.concatenate(([0.], prec, [0.]))
    mrec = numpy.concatenate(([0.], rec, [1.]))
    mpre = numpy.maximum.accumulate(mpre[::-1])[::-1]
    step = numpy.flatnonzero(mrec[1:] != mrec[:-1])
    return numpy.sum((mrec[step + 1] - mrec[step]) * mpre[step + 1])


def _integer_pixels(bbox: numpy.ndarray) -> numpy.ndarray:
    """Boxes with 1 added to ``y_max`` and ``x_max``, in their own dtype."""
    bbox = bbox.copy()
    bbox[:, 2:] += 1
    return bbox
