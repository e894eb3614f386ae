"""The head's training targets (ChainerCV's ``ProposalTargetCreator``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework import backend
from vision.models.detection.faster_rcnn.utils.bbox2loc import bbox2loc
from vision.transforms._random import numpy_source
from vision.utils import bbox_iou


class ProposalTargetCreator:
    """Samples proposals and assigns them ground-truth boxes and labels, for training the head.

    The ground-truth boxes join the proposals. Each is assigned the box of greatest IoU;
    those with an IoU of at least ``pos_iou_thresh`` are foreground (the box's label + 1), those
    with an IoU in ``[neg_iou_thresh_lo, neg_iou_thresh_hi)`` background (0). At most
    ``round(n_sample * pos_ratio)`` foreground ones and background ones up to ``n_sample`` in
    all are drawn at random; with ``n_sample`` None (Light-Head R-CNN's, ChainerCV's -1 there),
    ``n_sample`` is the number of regions, ground-truth boxes included. The offsets to the
    boxes (:func:`bbox2loc`) are normalised by ``loc_normalize_mean`` and
    ``loc_normalize_std``.

    Args:
        n_sample (int or None): the number of regions sampled; None: as many as there are.
        pos_ratio (float): the largest share of foreground regions.
        pos_iou_thresh (float): the IoU from which a region is foreground.
        neg_iou_thresh_hi (float): the IoU below which a region is background.
        neg_iou_thresh_lo (float): the least IoU of a background region.
    """

    def __init__(self, n_sample: int | None = 128, pos_ratio: float = 0.25,
                 pos_iou_thresh: float = 0.5, neg_iou_thresh_hi: float = 0.5,
                 neg_iou_thresh_lo: float = 0.0):
        self.n_sample = n_sample
        self.pos_ratio = pos_ratio
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh_hi = neg_iou_thresh_hi
        self.neg_iou_thresh_lo = neg_iou_thresh_lo

    def __call__(self, roi, bbox, label,
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.1, 0.1, 0.2, 0.2), *,
                 rng: numpy.random.Generator | None = None):
        """Samples the regions of one image.

        Args:
            roi (array): ``(R, 4)`` float32, the proposals.
            bbox (array): ``(R', 4)`` float32, the ground-truth boxes, ``R' >= 1``.
            label (array): ``(R',)`` int32, their labels in ``[0, n_fg_class - 1]``.
            loc_normalize_mean (sequence of float): the four means subtracted from the offsets.
            loc_normalize_std (sequence of float): the four deviations they are divided by.
            rng (numpy.random.Generator): the source of the sampling; None: NumPy's global
                state, as in ChainerCV.

        Returns:
            tuple of three arrays on ``roi``'s device, foreground regions first:

            - **sample_roi**: ``(S, 4)`` float32, the sampled regions, ``S <= n_sample``;
            - **gt_roi_loc**: ``(S, 4)`` float32, their normalised offsets to their boxes;
            - **gt_roi_label**: ``(S,)`` int32, 0 for background, the box's label + 1 else.

        Raises:
            ValueError: ``bbox`` holds no box, or ``label`` does not match it.
        """
        xp = backend.get_array_module(roi)
        bbox = backend.to_cpu(bbox)
        sample_roi, gt_index, gt_roi_label = self.sample(roi, bbox, label, rng=rng)
        gt_roi_loc = bbox2loc(sample_roi, bbox[gt_index])
        gt_roi_loc = ((gt_roi_loc - numpy.asarray(loc_normalize_mean, numpy.float32))
                      / numpy.asarray(loc_normalize_std, numpy.float32))
        return xp.asarray(sample_roi), xp.asarray(gt_roi_loc), xp.asarray(gt_roi_label)

    def sample(self, roi, bbox, label, *, rng: numpy.random.Generator | None = None):
        """Samples the regions of one image and assigns them their boxes, without coding the
        offsets: what :meth:`__call__` and the targets of other heads (FCIS's masks) share.

        Args:
            roi (array): ``(R, 4)`` float32, the proposals.
            bbox (array): ``(R', 4)`` float32, the ground-truth boxes, ``R' >= 1``.
            label (array): ``(R',)`` int32, their labels in ``[0, n_fg_class - 1]``.
            rng (numpy.random.Generator): as in :meth:`__call__`.

        Returns:
            tuple of three NumPy arrays, foreground regions first:

            - **sample_roi**: ``(S, 4)`` float32, the sampled regions, ``S <= n_sample``;
            - **gt_index**: ``(S,)`` intp, the box assigned to each (of greatest IoU);
            - **gt_roi_label**: ``(S,)`` int32, 0 for background, the box's label + 1 else.

        Raises:
            ValueError: ``bbox`` holds no box, or ``label`` does not match it.
        """
        roi, bbox, label = backend.to_cpu(roi), backend.to_cpu(bbox), backend.to_cpu(label)
        if len(bbox) == 0:
            raise ValueError('ProposalTargetCreator: bbox must hold at least one box, but got '
                             'shape (0, 4)')
        if label.shape != (len(bbox),):
            raise ValueError(f'ProposalTargetCreator: label must have shape ({len(bbox)},) '
                             f'like bbox, but got shape {label.shape}')
        roi = numpy.concatenate((roi, bbox), axis=0).astype(numpy.float32, copy=False)
        iou = bbox_iou(roi, bbox)
        gt_assignment = iou.argmax(axis=1)
        max_iou = iou.max(axis=1)
        source = numpy_source(rng)

        pos_index = numpy.flatnonzero(max_iou >= self.pos_iou_thresh)
        n_sample = len(roi) if self.n_sample is None else self.n_sample
        n_pos = int(min(numpy.round(n_sample * self.pos_ratio), pos_index.size))
        if pos_index.size > 0:
            pos_index = source.choice(pos_index, size=n_pos, replace=False)
        neg_index = numpy.flatnonzero((max_iou < self.neg_iou_thresh_hi)
                                      & (max_iou >= self.neg_iou_thresh_lo))
        n_neg = int(min(n_sample - n_pos, neg_index.size))
        if neg_index.size > 0:
            neg_index = source.choice(neg_index, size=n_neg, replace=False)
        keep = numpy.concatenate((pos_index, neg_index)).astype(numpy.intp)

        gt_roi_label = (label[gt_assignment[keep]] + 1).astype(numpy.int32)
        gt_roi_label[n_pos:] = 0
        return roi[keep], gt_assignment[keep], gt_roi_label
