"""The RPN's training targets (ChainerCV's ``AnchorTargetCreator``)."""

from __future__ import annotations

import numpy

from framework import backend
from vision.models.detection.faster_rcnn.utils.bbox2loc import bbox2loc
from vision.transforms._random import numpy_source
from vision.utils import bbox_iou


class AnchorTargetCreator:
    """Assigns the ground-truth boxes to the anchors, for training the RPN.

    Only anchors inside the image take part. An anchor is positive (label 1) when its IoU with
    some box is at least ``pos_iou_thresh``, or when it is the anchor of greatest IoU with a box
    (every anchor tied for it); negative (0) when its greatest IoU is below ``neg_iou_thresh``
    and it is not positive; ignored (-1) otherwise. Then at most ``n_sample * pos_ratio``
    positives are kept, and negatives up to ``n_sample`` in all, chosen at random; the rest
    become -1. The offsets are those of each anchor to its box of greatest IoU (:func:`bbox2loc`).

    Args:
        n_sample (int): the number of anchors sampled.
        pos_iou_thresh (float): the IoU from which an anchor is positive.
        neg_iou_thresh (float): the IoU below which an anchor is negative.
        pos_ratio (float): the largest share of positives in the sample.
    """

    def __init__(self, n_sample: int = 256, pos_iou_thresh: float = 0.7,
                 neg_iou_thresh: float = 0.3, pos_ratio: float = 0.5):
        self.n_sample = n_sample
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh = neg_iou_thresh
        self.pos_ratio = pos_ratio

    def __call__(self, bbox, anchor, img_size: tuple[int, int], *,
                 rng: numpy.random.Generator | None = None):
        """Assigns the boxes of one image to the anchors.

        Args:
            bbox (array): ``(R, 4)`` float32, the ground-truth boxes, ``R >= 1``.
            anchor (array): ``(S, 4)`` float32, the anchors.
            img_size (tuple of int): ``(H, W)`` of the image.
            rng (numpy.random.Generator): the source of the sampling; None: NumPy's global
                state, as in ChainerCV.

        Returns:
            tuple of two arrays on ``bbox``'s device:

            - **loc**: ``(S, 4)`` float32, the offsets of each anchor to its box (0 for the
              anchors outside the image);
            - **label**: ``(S,)`` int32, 1 positive, 0 negative, -1 ignored.

        Raises:
            ValueError: ``bbox`` holds no box.
        """
        xp = backend.get_array_module(bbox)
        bbox, anchor = backend.to_cpu(bbox), backend.to_cpu(anchor)
        if len(bbox) == 0:
            raise ValueError('AnchorTargetCreator: bbox must hold at least one box, but got '
                             'shape (0, 4)')
        img_H, img_W = img_size
        inside = numpy.flatnonzero((anchor[:, 0] >= 0) & (anchor[:, 1] >= 0)
                                   & (anchor[:, 2] <= img_H) & (anchor[:, 3] <= img_W))
        iou = bbox_iou(anchor[inside], bbox)
        argmax_iou = iou.argmax(axis=1)
        max_iou = iou[numpy.arange(len(inside)), argmax_iou]
        gt_argmax_iou = numpy.flatnonzero((iou == iou.max(axis=0)).any(axis=1))

        label = numpy.full(len(inside), -1, dtype=numpy.int32)
        label[max_iou < self.neg_iou_thresh] = 0
        label[gt_argmax_iou] = 1
        label[max_iou >= self.pos_iou_thresh] = 1
        source = numpy_source(rng)
        n_pos = int(self.pos_ratio * self.n_sample)
        _subsample(label, 1, n_pos, source)
        _subsample(label, 0, self.n_sample - int(numpy.sum(label == 1)), source)

        full_label = numpy.full(len(anchor), -1, dtype=numpy.int32)
        full_label[inside] = label
        loc = numpy.zeros((len(anchor), 4), dtype=numpy.float32)
        loc[inside] = bbox2loc(anchor[inside], bbox[argmax_iou])
        return xp.asarray(loc), xp.asarray(full_label)


def _subsample(label: numpy.ndarray, value: int, n: int, source) -> None:
    """Sets to -1 all but ``n`` of the labels equal to ``value``, chosen at random."""
    index = numpy.flatnonzero(label == value)
    if len(index) > n:
        label[source.choice(index, size=len(index) - n, replace=False)] = -1
