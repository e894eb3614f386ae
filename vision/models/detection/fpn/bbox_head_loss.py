"""The loss of the FPN detectors' box head (ChainerCV's ``fpn.bbox_head_loss_pre`` and
``fpn.bbox_head_loss_post``): the regions sampled and given targets before the head runs,
the loss of its outputs after."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import backend
from vision.models.detection.faster_rcnn.utils.smooth_l1_loss import fast_rcnn_loc_loss
from vision.models.detection.fpn.box_coding import encode_bbox
from vision.transforms._random import numpy_source
from vision.utils import bbox_iou


def bbox_head_loss_pre(rois, roi_indices, std: Sequence[float], bboxes, labels, *,
                       thresh: float = 0.5, n_sample: int = 512, fg_ratio: float = 0.25,
                       rng: numpy.random.Generator | None = None):
    """Samples the regions of each image and gives them targets.

    A region whose greatest IoU with a ground-truth box of its image is at least ``thresh``
    takes that box's label plus one (0 is the background) and its offsets to it
    (:func:`~vision.models.detection.fpn.box_coding.encode_bbox` with ``std``); the others are
    background. Of each image, at most ``n_sample * fg_ratio`` foreground regions are kept, and
    background ones up to ``n_sample`` in all, chosen at random.

    Args:
        rois (sequence of arrays): ``(R_l, 4)`` float32 per level (:meth:`BboxHead.distribute`).
        roi_indices (sequence of arrays): ``(R_l,)`` int32 per level.
        std (pair of float): the head's :attr:`~BboxHead.std`.
        bboxes (sequence of arrays): ``(R_n, 4)`` float32, the ground-truth boxes of each image.
        labels (sequence of arrays): ``(R_n,)`` int32, their labels, from 0.
        thresh (float): the IoU from which a region is foreground.
        n_sample (int): the regions sampled per image.
        fg_ratio (float): the largest share of foreground in the sample.
        rng (numpy.random.Generator): the source of the sampling; None: NumPy's global state.

    Returns:
        tuple of four lists, one array per level, the sampled regions in their order:
        ``rois`` ``(R'_l, 4)`` float32, ``roi_indices`` ``(R'_l,)`` int32, ``gt_locs``
        ``(R'_l, 4)`` float32 (0 for the background) and ``gt_labels`` ``(R'_l,)`` int32.
    """
    xp = backend.get_array_module(*rois)
    n_level = len(rois)
    level = numpy.concatenate([numpy.full(len(r), lv, numpy.int32) for lv, r in enumerate(rois)])
    roi = numpy.concatenate([backend.to_cpu(r) for r in rois]).astype(numpy.float32)
    roi_index = numpy.concatenate([backend.to_cpu(r) for r in roi_indices]).astype(numpy.int32)
    gt_loc = numpy.zeros((len(roi), 4), numpy.float32)
    gt_label = numpy.zeros(len(roi), numpy.int32)  # the background, until matched or dropped
    source = numpy_source(rng)
    for i in numpy.unique(roi_index):
        index = numpy.flatnonzero(roi_index == i)
        bbox, label = backend.to_cpu(bboxes[i]), backend.to_cpu(labels[i])
        if len(bbox) > 0:
            iou = bbox_iou(roi[index], bbox)
            fg = index[iou.max(axis=1) >= thresh]
            gt_index = iou.argmax(axis=1)[iou.max(axis=1) >= thresh]
            gt_label[fg] = label[gt_index] + 1
            gt_loc[fg] = encode_bbox(roi[fg], bbox[gt_index], std)
        fg_index = index[gt_label[index] > 0]
        n_fg = int(n_sample * fg_ratio)
        if len(fg_index) > n_fg:
            gt_label[source.choice(fg_index, size=len(fg_index) - n_fg, replace=False)] = -1
        bg_index = index[gt_label[index] == 0]
        n_bg = n_sample - int((gt_label[index] > 0).sum())
        if len(bg_index) > n_bg:
            gt_label[source.choice(bg_index, size=len(bg_index) - n_bg, replace=False)] = -1
    masks = [(gt_label >= 0) & (level == lv) for lv in range(n_level)]
    return ([xp.asarray(roi[m]) for m in masks], [xp.asarray(roi_index[m]) for m in masks],
            [xp.asarray(gt_loc[m]) for m in masks], [xp.asarray(gt_label[m]) for m in masks])


def bbox_head_loss_post(locs, confs, roi_indices, gt_locs, gt_labels, batchsize: int):
    """The localisation and classification losses of the box head.

    Of each image, the localisation loss is the smooth L1 loss (:math:`\\beta = 1`) of the
    foreground regions' offsets for their class, summed and divided by the image's regions;
    the classification loss the mean softmax cross entropy of its regions. Both are summed
    over the images and divided by ``batchsize``.

    Args:
        locs (Variable): ``(R, n_class, 4)``, the head's offsets for the regions of
            :func:`bbox_head_loss_pre`, levels concatenated.
        confs (Variable): ``(R, n_class)``, its logits.
        roi_indices (sequence of arrays): ``(R_l,)`` int32 per level, from
            :func:`bbox_head_loss_pre`.
        gt_locs (sequence of arrays): ``(R_l, 4)`` float32 per level, from it.
        gt_labels (sequence of arrays): ``(R_l,)`` int32 per level, from it.
        batchsize (int): the number of images.

    Returns:
        tuple of two Variables: ``loc_loss`` and ``conf_loss``, float32 scalars (0 without
        regions).
    """
    xp = backend.get_array_module(locs.array)
    roi_indices = xp.concatenate(roi_indices).astype(numpy.int32)
    gt_locs = xp.concatenate(gt_locs).astype(numpy.float32)
    gt_labels = xp.concatenate(gt_labels).astype(numpy.int32)
    loc_loss = conf_loss = F.sum(locs[:0])
    for i in numpy.unique(backend.to_cpu(roi_indices)):
        index = xp.flatnonzero(roi_indices == i)
        label = gt_labels[index]
        loc_loss += fast_rcnn_loc_loss(locs[index, label], gt_locs[index], label, sigma=1.)
        conf_loss += F.softmax_cross_entropy(confs[index], label)
    return loc_loss / batchsize, conf_loss / batchsize
