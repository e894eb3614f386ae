"""The head's loss of Light-Head R-CNN over its hardest regions (online hard example mining)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend


def ohem_loss(roi_cls_locs, roi_scores, gt_roi_locs, gt_roi_labels, n_ohem_sample: int,
              roi_sigma: float = 1.):
    """The localisation and classification losses of the ``n_ohem_sample`` regions of greatest
    loss (Shrivastava et al., "Training Region-based Object Detectors with Online Hard Example
    Mining", 2016), as ChainerCV's Light-Head R-CNN computes them.

    A region's localisation loss is the smooth L1 loss (``roi_sigma``) of the offsets of its
    ground-truth class, counted for foreground regions only; its classification loss the softmax
    cross entropy of its scores. The regions whose sum of the two is greatest are kept (the
    choice is not differentiated), and each loss is summed over them and divided by their
    number.

    Args:
        roi_cls_locs (Variable): ``(R, 4 * n_class)`` float32, the head's offsets per class.
        roi_scores (Variable): ``(R, n_class)`` float32, the head's scores.
        gt_roi_locs (array): ``(R, 4)`` float32, the target offsets.
        gt_roi_labels (array): ``(R,)`` int32, the target classes, 0 the background.
        n_ohem_sample (int): the number of regions kept (all of them if there are fewer).
        roi_sigma (float): the sharpness of the smooth L1 loss.

    Returns:
        tuple of two Variables: ``roi_loc_loss`` and ``roi_cls_loss``, float32 scalars.
    """
    xp = backend.get_array_module(gt_roi_locs)
    n_sample = roi_cls_locs.shape[0]
    roi_locs = F.reshape(roi_cls_locs, (n_sample, -1, 4))[xp.arange(n_sample), gt_roi_labels]
    in_weight = (gt_roi_labels > 0).astype(gt_roi_locs.dtype)[:, None]
    sigma2 = roi_sigma ** 2
    diff = (roi_locs - gt_roi_locs) * in_weight
    loc_loss = F.huber_loss(diff, xp.zeros(diff.shape, diff.dtype), 1. / sigma2) * sigma2
    cls_loss = F.softmax_cross_entropy(roi_scores, gt_roi_labels, reduce='no')
    n_ohem_sample = min(n_ohem_sample, n_sample)
    total = backend.to_cpu(loc_loss.array + cls_loss.array)
    hardest = xp.asarray(numpy.argsort(total)[::-1][:n_ohem_sample])
    return (F.sum(loc_loss[hardest]) / n_ohem_sample,
            F.sum(cls_loss[hardest]) / n_ohem_sample)
