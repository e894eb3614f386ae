"""The head's training targets of FCIS, masks included (ChainerCV's FCIS
``ProposalTargetCreator``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework import backend
from vision.models.detection.faster_rcnn.utils.bbox2loc import bbox2loc
from vision.models.detection.faster_rcnn.utils.proposal_target_creator import (
    ProposalTargetCreator as FasterRCNNProposalTargetCreator,
)
from vision.transforms import resize


class ProposalTargetCreator(FasterRCNNProposalTargetCreator):
    """Samples proposals and assigns them ground-truth boxes, labels and masks, for training
    the head of FCIS.

    The regions are sampled and assigned boxes as Faster R-CNN's
    :class:`~vision.models.detection.faster_rcnn.ProposalTargetCreator` samples them (with
    background regions from an IoU of 0.1 by default). The mask of a foreground region is the
    part of its box's mask inside the region (rounded to pixels), resized to ``mask_size`` and
    binarised at ``binary_thresh``; background regions' masks are -1 (ignored).

    Args:
        n_sample (int): the number of regions sampled.
        pos_ratio (float): the largest share of foreground regions.
        pos_iou_thresh (float): the IoU from which a region is foreground.
        neg_iou_thresh_hi (float): the IoU below which a region is background.
        neg_iou_thresh_lo (float): the least IoU of a background region.
        binary_thresh (float): the threshold of the resized masks.
    """

    def __init__(self, n_sample: int = 128, pos_ratio: float = 0.25,
                 pos_iou_thresh: float = 0.5, neg_iou_thresh_hi: float = 0.5,
                 neg_iou_thresh_lo: float = 0.1, binary_thresh: float = 0.4):
        super().__init__(n_sample, pos_ratio, pos_iou_thresh, neg_iou_thresh_hi,
                         neg_iou_thresh_lo)
        self.binary_thresh = binary_thresh

    def __call__(self, roi, mask, label, bbox,
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.2, 0.2, 0.5, 0.5),
                 mask_size: int | tuple[int, int] = (21, 21), *,
                 rng: numpy.random.Generator | None = None):
        """Samples the regions of one image.

        Args:
            roi (array): ``(R, 4)`` float32, the proposals.
            mask (array): ``(R', H, W)`` bool, the ground-truth masks (or float32
                probabilities, binarised after resizing, as ChainerCV's SBD recipe gives them).
            label (array): ``(R',)`` int32, their labels in ``[0, n_fg_class - 1]``.
            bbox (array): ``(R', 4)`` float32, their boxes, ``R' >= 1``.
            loc_normalize_mean (sequence of float): the four means subtracted from the offsets.
            loc_normalize_std (sequence of float): the four deviations they are divided by.
            mask_size (int or tuple of int): ``(RH, RW)`` of the target masks.
            rng (numpy.random.Generator): the source of the sampling; None: NumPy's global
                state, as in ChainerCV.

        Returns:
            tuple of four arrays on ``roi``'s device, foreground regions first:

            - **sample_roi**: ``(S, 4)`` float32, the sampled regions, ``S <= n_sample``;
            - **gt_roi_mask**: ``(S, RH, RW)`` int32, 1 inside the object, 0 outside, -1 for
              background regions (and a foreground region with no pixel);
            - **gt_roi_label**: ``(S,)`` int32, 0 for background, the box's label + 1 else;
            - **gt_roi_loc**: ``(S, 4)`` float32, the normalised offsets to their boxes.

        Raises:
            ValueError: ``bbox`` holds no box, or ``label`` does not match it.
        """
        xp = backend.get_array_module(roi)
        mask, bbox = backend.to_cpu(mask), backend.to_cpu(bbox)
        if isinstance(mask_size, int):
            mask_size = (mask_size, mask_size)
        sample_roi, gt_index, gt_roi_label = self.sample(roi, bbox, label, rng=rng)
        gt_roi_loc = bbox2loc(sample_roi, bbox[gt_index])
        gt_roi_loc = ((gt_roi_loc - numpy.asarray(loc_normalize_mean, numpy.float32))
                      / numpy.asarray(loc_normalize_std, numpy.float32))
        gt_roi_mask = numpy.full((len(sample_roi), *mask_size), -1, numpy.int32)
        for i in numpy.flatnonzero(gt_roi_label > 0):
            y_min, x_min, y_max, x_max = numpy.round(sample_roi[i]).astype(numpy.intp)
            crop = mask[gt_index[i], y_min:y_max, x_min:x_max]
            if crop.size:
                crop = resize(crop.astype(numpy.float32)[None], mask_size)[0]
                gt_roi_mask[i] = crop >= self.binary_thresh
        return (xp.asarray(sample_roi), xp.asarray(gt_roi_mask), xp.asarray(gt_roi_label),
                xp.asarray(gt_roi_loc))
