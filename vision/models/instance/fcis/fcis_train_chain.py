"""The loss of FCIS for training (ChainerCV's ``FCISTrainChain``)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend, reporter
from framework.links import Chain
from vision.models.detection.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator
from vision.models.detection.faster_rcnn.utils.smooth_l1_loss import fast_rcnn_loc_loss
from vision.models.instance.fcis.proposal_target_creator import ProposalTargetCreator


class FCISTrainChain(Chain):
    """Computes the loss of an :class:`FCIS` on a batch of one image, in the paper's joint
    training.

    The RPN's targets come from :class:`~vision.models.detection.faster_rcnn.
    AnchorTargetCreator`, the head's from :class:`ProposalTargetCreator` applied to the RPN's
    proposals; the head segments each sampled region as its ground-truth class. The loss is
    the sum of the RPN's localisation loss (smooth L1, ``rpn_sigma``) and classification loss,
    the head's localisation loss (``roi_sigma``, the foreground offsets of foreground regions),
    classification loss and mask loss (softmax cross entropy of the inside and outside scores
    over the target masks' pixels that are not -1, summed, divided by the number of regions
    and by ``roi_size ** 2``, times 10); each is reported (``rpn_loc_loss``,
    ``rpn_cls_loss``, ``roi_loc_loss``, ``roi_cls_loss``, ``roi_mask_loss``, ``loss``).

    Args:
        fcis (FCIS): the model trained; its head must pool once (``iter2`` False).
        rpn_sigma (float): the sharpness of the RPN's smooth L1 loss.
        roi_sigma (float): the sharpness of the head's.
        anchor_target_creator (AnchorTargetCreator): the RPN's targets.
        proposal_target_creator (ProposalTargetCreator): the head's samples and targets.
        rng (numpy.random.Generator): the source of the creators' sampling; None: NumPy's
            global state, as in ChainerCV.

    Raises:
        ValueError: the head pools twice (``iter2``), which doubles its outputs.
    """

    def __init__(self, fcis, rpn_sigma: float = 3., roi_sigma: float = 1.,
                 anchor_target_creator: AnchorTargetCreator | None = None,
                 proposal_target_creator: ProposalTargetCreator | None = None,
                 rng: numpy.random.Generator | None = None):
        super().__init__()
        if fcis.head.iter2:
            raise ValueError('FCISTrainChain: the head of fcis must pool once: build the '
                             'model with iter2=False for training (ChainerCV trains so)')
        with self.init_scope():
            self.fcis = fcis
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.mask_size = fcis.head.roi_size
        self.loc_normalize_mean = fcis.loc_normalize_mean
        self.loc_normalize_std = fcis.loc_normalize_std
        self.anchor_target_creator = anchor_target_creator or AnchorTargetCreator()
        self.proposal_target_creator = proposal_target_creator or ProposalTargetCreator()
        self.rng = rng

    def forward(self, imgs, masks, labels, bboxes, scales):
        """The loss of one prepared image.

        Args:
            imgs (Variable or array): ``(1, 3, H, W)`` float32, the prepared image.
            masks (array): ``(1, R, H, W)`` bool, its object masks (or float32
                probabilities, see :class:`ProposalTargetCreator`).
            labels (array): ``(1, R)`` int32, their labels in ``[0, n_fg_class - 1]``.
            bboxes (array): ``(1, R, 4)`` float32, their boxes in the prepared image's pixels.
            scales (float or array): the factor the original image was scaled by (one, or
                ``(1,)``).

        Returns:
            Variable: the float32 scalar loss.

        Raises:
            ValueError: the batch is not of one image, or the masks are not of its size.
        """
        masks, labels, bboxes = _as_array(masks), _as_array(labels), _as_array(bboxes)
        if len(masks) != 1:
            raise ValueError(f'FCISTrainChain: the batch must hold one image, but masks holds '
                             f'{len(masks)}')
        img_size = tuple(imgs.shape[2:])
        if tuple(masks.shape[2:]) != img_size:
            raise ValueError(f'FCISTrainChain: masks must be of the image size {img_size}, '
                             f'but got shape {masks.shape}')
        scale = float(numpy.ravel(backend.to_cpu(_as_array(scales)))[0])
        model = self.fcis
        rpn_features, roi_features = model.extractor(imgs)
        rpn_locs, rpn_scores, rois, _, anchor = model.rpn(rpn_features, img_size, scale)
        mask, label, bbox = masks[0], labels[0], bboxes[0]

        sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc = self.proposal_target_creator(
            rois, mask, label, bbox, self.loc_normalize_mean, self.loc_normalize_std,
            self.mask_size, rng=self.rng)
        sample_roi_index = self.xp.zeros((len(sample_roi),), dtype=numpy.int32)
        roi_ag_seg_score, roi_ag_loc, roi_cls_score, _, _ = model.head(
            roi_features, sample_roi, sample_roi_index, img_size, gt_roi_label)
        gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(bbox, anchor, img_size,
                                                              rng=self.rng)

        rpn_loc_loss = fast_rcnn_loc_loss(rpn_locs[0], gt_rpn_loc, gt_rpn_label,
                                          self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(rpn_scores[0], gt_rpn_label)
        n_sample = roi_ag_loc.shape[0]
        roi_loc = roi_ag_loc[self.xp.arange(n_sample), (gt_roi_label > 0).astype(numpy.int32)]
        roi_loc_loss = fast_rcnn_loc_loss(roi_loc, gt_roi_loc, gt_roi_label, self.roi_sigma)
        roi_cls_loss = F.softmax_cross_entropy(roi_cls_score, gt_roi_label)
        roi_mask_loss = F.softmax_cross_entropy(roi_ag_seg_score, gt_roi_mask,
                                                normalize=False) \
            * (10. / self.mask_size / self.mask_size)
        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss + roi_mask_loss
        reporter.report({'rpn_loc_loss': rpn_loc_loss, 'rpn_cls_loss': rpn_cls_loss,
                         'roi_loc_loss': roi_loc_loss, 'roi_cls_loss': roi_cls_loss,
                         'roi_mask_loss': roi_mask_loss, 'loss': loss}, self)
        return loss


def _as_array(x):
    return getattr(x, 'array', x)
