"""The loss of Faster R-CNN for training (ChainerCV's ``FasterRCNNTrainChain``)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend, reporter
from framework.links import Chain
from vision.models.detection.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator
from vision.models.detection.faster_rcnn.utils.proposal_target_creator import (
    ProposalTargetCreator,
)
from vision.models.detection.faster_rcnn.utils.smooth_l1_loss import fast_rcnn_loc_loss


class FasterRCNNTrainChain(Chain):
    """Computes the loss of a :class:`FasterRCNN` on a batch of one image, as in the paper's
    approximate joint training.

    The RPN's targets come from :class:`AnchorTargetCreator`, the head's from
    :class:`ProposalTargetCreator` applied to the RPN's proposals. The loss is the sum of the
    RPN's localisation loss (smooth L1, ``rpn_sigma``) and classification loss (softmax cross
    entropy over the sampled anchors) and the head's (``roi_sigma``; over the sampled
    regions); each is reported (``rpn_loc_loss``, ``rpn_cls_loss``, ``roi_loc_loss``,
    ``roi_cls_loss``, ``loss``).

    Args:
        faster_rcnn (FasterRCNN): the model trained.
        rpn_sigma (float): the sharpness of the RPN's smooth L1 loss.
        roi_sigma (float): the sharpness of the head's.
        anchor_target_creator (AnchorTargetCreator): the RPN's targets.
        proposal_target_creator (ProposalTargetCreator): the head's samples and targets.
        rng (numpy.random.Generator): the source of the creators' sampling; None: NumPy's
            global state, as in ChainerCV.
    """

    def __init__(self, faster_rcnn, rpn_sigma: float = 3., roi_sigma: float = 1.,
                 anchor_target_creator: AnchorTargetCreator | None = None,
                 proposal_target_creator: ProposalTargetCreator | None = None,
                 rng: numpy.random.Generator | None = None):
        super().__init__()
        with self.init_scope():
            self.faster_rcnn = faster_rcnn
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.anchor_target_creator = anchor_target_creator or AnchorTargetCreator()
        self.proposal_target_creator = proposal_target_creator or ProposalTargetCreator()
        self.loc_normalize_mean = faster_rcnn.loc_normalize_mean
        self.loc_normalize_std = faster_rcnn.loc_normalize_std
        self.rng = rng

    def forward(self, imgs, bboxes, labels, scales):
        """The loss of one prepared image.

        Args:
            imgs (Variable or array): ``(1, 3, H, W)`` float32, the prepared image.
            bboxes (array): ``(1, R, 4)`` float32, its boxes in the prepared image's pixels.
            labels (array): ``(1, R)`` int32, their labels in ``[0, n_fg_class - 1]``.
            scales (float or array): the factor the original image was scaled by (one, or
                ``(1,)``).

        Returns:
            Variable: the float32 scalar loss.

        Raises:
            ValueError: the batch is not of one image.
        """
        bboxes, labels = _as_array(bboxes), _as_array(labels)
        n = len(bboxes)
        if n != 1:
            raise ValueError(f'FasterRCNNTrainChain: the batch must hold one image, but '
                             f'bboxes holds {n}')
        scale = float(numpy.ravel(backend.to_cpu(_as_array(scales)))[0])
        img_size = tuple(imgs.shape[2:])
        model = self.faster_rcnn
        features = model.extractor(imgs)
        rpn_locs, rpn_scores, rois, _, anchor = model.rpn(features, img_size, scale)
        bbox, label = bboxes[0], labels[0]

        sample_roi, gt_roi_loc, gt_roi_label = self.proposal_target_creator(
            rois, bbox, label, self.loc_normalize_mean, self.loc_normalize_std, rng=self.rng)
        sample_roi_index = self.xp.zeros((len(sample_roi),), dtype=numpy.int32)
        roi_cls_loc, roi_score = model.head(features, sample_roi, sample_roi_index)
        gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(bbox, anchor, img_size,
                                                              rng=self.rng)

        rpn_loc_loss = fast_rcnn_loc_loss(rpn_locs[0], gt_rpn_loc, gt_rpn_label,
                                          self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(rpn_scores[0], gt_rpn_label)
        n_sample = roi_cls_loc.shape[0]
        roi_loc = F.reshape(roi_cls_loc, (n_sample, -1, 4))[
            self.xp.arange(n_sample), gt_roi_label]
        roi_loc_loss = fast_rcnn_loc_loss(roi_loc, gt_roi_loc, gt_roi_label, self.roi_sigma)
        roi_cls_loss = F.softmax_cross_entropy(roi_score, gt_roi_label)
        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss
        reporter.report({'rpn_loc_loss': rpn_loc_loss, 'rpn_cls_loss': rpn_cls_loss,
                         'roi_loc_loss': roi_loc_loss, 'roi_cls_loss': roi_cls_loss,
                         'loss': loss}, self)
        return loss


def _as_array(x):
    return getattr(x, 'array', x)
