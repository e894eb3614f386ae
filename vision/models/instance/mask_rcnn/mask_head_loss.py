"""The loss of Mask R-CNN's mask head (ChainerCV's ``fpn.mask_head_loss_pre`` and
``fpn.mask_head_loss_post``): the foreground regions of the box head's sample given their
masks' grids before the head runs, the loss of its logits after."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend
from vision.models.instance.mask_rcnn.mask_coding import mask_to_segm
from vision.utils import bbox_iou


def mask_head_loss_pre(rois, roi_indices, gt_masks, gt_bboxes, gt_head_labels,
                       segm_size: int):
    """The foreground regions of the box head's sample and their targets.

    Of the regions that :func:`~vision.models.detection.fpn.bbox_head_loss_pre` sampled, the
    foreground ones (label above 0) are kept, level by level in their order; each takes the
    ``segm_size`` grid (:func:`mask_to_segm`) of the mask of the ground-truth box of its image
    it overlaps most (greatest IoU, the first on ties) and its label.

    Args:
        rois (sequence of arrays): ``(R_l, 4)`` float32 per level, in the prepared images'
            pixels.
        roi_indices (sequence of arrays): ``(R_l,)`` int32 per level, the image of each.
        gt_masks (sequence of arrays): ``(R_n, H_n, W_n)`` bool, the masks of each image at
            its prepared size (a mask smaller than the padded input reads as zeros beyond).
        gt_bboxes (sequence of arrays): ``(R_n, 4)`` float32, the boxes of those masks.
        gt_head_labels (sequence of arrays): ``(R_l,)`` int32 per level, the box head's labels
            of the regions (0 for the background, a class plus one otherwise).
        segm_size (int): the side ``M`` of the grid (:attr:`MaskHead.segm_size`).

    Returns:
        tuple of four lists, one array per level, on the regions' device: ``mask_rois``
        ``(R'_l, 4)`` float32, ``mask_roi_indices`` ``(R'_l,)`` int32, ``gt_segms``
        ``(R'_l, M, M)`` float32 of zeros and ones and ``gt_mask_labels`` ``(R'_l,)`` int32
        (the box head's labels, background excluded).

    Raises:
        ValueError: the three per-level sequences differ in length, or an image with
            foreground regions has no ground-truth box.
    """
    fname = 'mask_head_loss_pre'
    if not len(rois) == len(roi_indices) == len(gt_head_labels):
        raise ValueError(f'{fname}: rois, roi_indices and gt_head_labels must have one entry '
                         f'per level, but got {len(rois)}, {len(roi_indices)} and '
                         f'{len(gt_head_labels)}')
    xp = backend.get_array_module(*rois)
    level = numpy.concatenate([numpy.full(len(r), lv, numpy.int32) for lv, r in enumerate(rois)])
    roi = numpy.concatenate([backend.to_cpu(r) for r in rois]).astype(numpy.float32)
    roi_index = numpy.concatenate([backend.to_cpu(r) for r in roi_indices]).astype(numpy.int32)
    label = numpy.concatenate([backend.to_cpu(r) for r in gt_head_labels]).astype(numpy.int32)
    fg = label > 0
    level, roi, roi_index, label = level[fg], roi[fg], roi_index[fg], label[fg]
    gt_segm = numpy.zeros((len(roi), segm_size, segm_size), numpy.float32)
    for i in numpy.unique(roi_index):
        index = numpy.flatnonzero(roi_index == i)
        gt_bbox = backend.to_cpu(gt_bboxes[i])
        if len(gt_bbox) == 0:
            raise ValueError(f'{fname}: image {i} has foreground regions but no ground-truth '
                             f'box; gt_head_labels must come from its boxes')
        gt_index = bbox_iou(roi[index], gt_bbox).argmax(axis=1)
        gt_segm[index] = mask_to_segm(gt_masks[i], roi[index], segm_size, gt_index)
    masks = [level == lv for lv in range(len(rois))]
    return ([xp.asarray(roi[m]) for m in masks], [xp.asarray(roi_index[m]) for m in masks],
            [xp.asarray(gt_segm[m]) for m in masks], [xp.asarray(label[m]) for m in masks])


def mask_head_loss_post(segms, mask_roi_indices, gt_segms, gt_mask_labels, batchsize: int):
    """The loss of the mask head: the sigmoid cross entropy of each region's logits of its
    class against its grid, averaged over every cell of every region of the batch (so,
    unlike the box head's loss, not divided by ``batchsize``; ChainerCV takes it too).

    Args:
        segms (Variable): ``(R, n_class, M, M)``, the head's logits for the regions of
            :func:`mask_head_loss_pre`, levels concatenated.
        mask_roi_indices (sequence of arrays): ``(R_l,)`` int32 per level, from
            :func:`mask_head_loss_pre`.
        gt_segms (sequence of arrays): ``(R_l, M, M)`` float32 per level, from it.
        gt_mask_labels (sequence of arrays): ``(R_l,)`` int32 per level, from it.
        batchsize (int): the number of images (not used by the mean).

    Returns:
        Variable: the float32 scalar loss (0 without regions).

    Raises:
        ValueError: the per-level sequences differ in length, or ``segms`` has not one row
            per region.
    """
    fname = 'mask_head_loss_post'
    if not len(mask_roi_indices) == len(gt_segms) == len(gt_mask_labels):
        raise ValueError(f'{fname}: mask_roi_indices, gt_segms and gt_mask_labels must have '
                         f'one entry per level, but got {len(mask_roi_indices)}, '
                         f'{len(gt_segms)} and {len(gt_mask_labels)}')
    xp = backend.get_array_module(segms.array)
    gt_segms = xp.concatenate(gt_segms).astype(numpy.int32)
    gt_mask_labels = xp.concatenate(gt_mask_labels).astype(numpy.int32)
    if len(segms) != len(gt_mask_labels):
        raise ValueError(f'{fname}: segms must have one row per region, {len(gt_mask_labels)}, '
                         f'but got shape {segms.shape}')
    return F.sigmoid_cross_entropy(segms[xp.arange(len(gt_mask_labels)), gt_mask_labels],
                                   gt_segms)
