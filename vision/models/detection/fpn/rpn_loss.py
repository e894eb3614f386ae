"""The loss of the FPN detectors' RPN (ChainerCV's ``fpn.rpn_loss``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import backend
from vision.models.detection.faster_rcnn.utils.smooth_l1_loss import fast_rcnn_loc_loss
from vision.models.detection.fpn.box_coding import encode_bbox
from vision.transforms._random import numpy_source
from vision.utils import bbox_iou


def rpn_loss(locs, confs, anchors, sizes: Sequence[tuple[int, int]], bboxes, *,
             fg_thresh: float = 0.7, bg_thresh: float = 0.3, n_sample: int = 256,
             fg_ratio: float = 0.25, rng: numpy.random.Generator | None = None):
    """The localisation and objectness losses of the RPN over all levels.

    Of each image, only the anchors inside it take part (top-left corner at least 0,
    bottom-right corner below the image's height and width). An anchor is positive when its
    IoU with a ground-truth box is at least ``fg_thresh``, or when it is an anchor of greatest
    IoU with some box; negative when it is not positive and its greatest IoU is below
    ``bg_thresh`` (every anchor inside, without boxes). At most ``n_sample * fg_ratio``
    positives are kept, and negatives up to ``n_sample`` in all, chosen at random.

    The localisation loss of an image is the smooth L1 loss (:math:`\\beta = 1/9`) of the
    positives' offsets to their box of greatest IoU
    (:func:`~vision.models.detection.fpn.box_coding.encode_bbox`), the objectness loss the
    sigmoid cross entropy of the sampled anchors, both summed and divided by the number of
    samples; each is averaged over the images.

    ChainerCV drew the negatives with replacement and took none when there were no more than
    it wanted; here they are drawn without replacement and all are taken then.

    Args:
        locs (list of Variables): ``(N, K_l, 4)`` per level (:meth:`RPN.forward`).
        confs (list of Variables): ``(N, K_l)`` per level.
        anchors (list of arrays): ``(K_l, 4)`` float32 per level (:meth:`RPN.anchors`).
        sizes (sequence of pairs of int): ``(H, W)`` of each image (before the padding).
        bboxes (sequence of arrays): ``(R_n, 4)`` float32, the ground-truth boxes of each
            image, in input pixels (possibly none).
        fg_thresh (float): the IoU from which an anchor is positive.
        bg_thresh (float): the IoU below which an anchor is negative.
        n_sample (int): the anchors sampled per image.
        fg_ratio (float): the largest share of positives in the sample.
        rng (numpy.random.Generator): the source of the sampling; None: NumPy's global state.

    Returns:
        tuple of two Variables: ``loc_loss`` and ``conf_loss``, float32 scalars.
    """
    locs = F.concat(locs, axis=1)
    confs = F.concat(confs, axis=1)
    xp = backend.get_array_module(locs.array)
    anchor = backend.to_cpu(xp.concatenate(anchors)).astype(numpy.float32)
    source = numpy_source(rng)
    loc_loss = conf_loss = 0
    for i, size in enumerate(sizes):
        gt_loc, label = _anchor_targets(anchor, size, backend.to_cpu(bboxes[i]), fg_thresh,
                                        bg_thresh, n_sample, fg_ratio, source)
        label = xp.asarray(label)
        loc_loss += fast_rcnn_loc_loss(locs[i], xp.asarray(gt_loc), label, sigma=3.)
        conf_loss += F.sigmoid_cross_entropy(confs[i], label)
    return loc_loss / len(sizes), conf_loss / len(sizes)


def _anchor_targets(anchor: numpy.ndarray, size, bbox: numpy.ndarray, fg_thresh: float,
                    bg_thresh: float, n_sample: int, fg_ratio: float, source):
    """The offsets ``(K, 4)`` (0 but for positives) and labels ``(K,)`` (1, 0, -1 ignored)
    of the anchors of one image."""
    inside = (anchor[:, :2] >= 0).all(axis=1) & (anchor[:, 2:] < numpy.asarray(size)).all(axis=1)
    label = numpy.full(len(anchor), -1, numpy.int32)
    gt_loc = numpy.zeros((len(anchor), 4), numpy.float32)
    if len(bbox) > 0:
        iou = bbox_iou(anchor, bbox)
        max_iou = iou.max(axis=1)
        if inside.any():
            inside_iou = iou[inside]
            best = (inside_iou == inside_iou.max(axis=0)).any(axis=1)
            label[numpy.flatnonzero(inside)[best]] = 1
        label[inside & (max_iou >= fg_thresh)] = 1
        positive = label == 1
        gt_loc[positive] = encode_bbox(anchor[positive], bbox[iou[positive].argmax(axis=1)])
        negative = inside & (max_iou < bg_thresh) & ~positive
    else:
        negative = inside
    fg_index = numpy.flatnonzero(label == 1)
    n_fg = int(n_sample * fg_ratio)
    if len(fg_index) > n_fg:
        label[source.choice(fg_index, size=len(fg_index) - n_fg, replace=False)] = -1
    bg_index = numpy.flatnonzero(negative)
    n_bg = n_sample - int((label == 1).sum())
    if len(bg_index) > n_bg:
        bg_index = source.choice(bg_index, size=n_bg, replace=False)
    label[bg_index] = 0
    return gt_loc, label
