"""The loss of Light-Head R-CNN for training (ChainerCV's ``LightHeadRCNNTrainChain``)."""

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
from vision.models.detection.light_head_rcnn.ohem_loss import ohem_loss


class LightHeadRCNNTrainChain(Chain):
    """Computes the loss of a :class:`LightHeadRCNN` on a batch, as in the paper's joint
    training.

    The RPN's targets come from :class:`~vision.models.detection.faster_rcnn.
    AnchorTargetCreator`, the head's from :class:`~vision.models.detection.faster_rcnn.
    ProposalTargetCreator` applied to every proposal of each image (``n_sample`` None by
    default). The loss is the sum of the RPN's localisation loss (smooth L1, ``rpn_sigma``) and
    classification loss (softmax cross entropy over the sampled anchors), and the head's over
    the ``n_ohem_sample`` regions per image of greatest loss (:func:`ohem_loss`;
    ``roi_sigma``), its localisation loss doubled; each is reported (``rpn_loc_loss``,
    ``rpn_cls_loss``, ``roi_loc_loss``, ``roi_cls_loss``, ``loss``).

    Args:
        light_head_rcnn (LightHeadRCNN): the model trained.
        rpn_sigma (float): the sharpness of the RPN's smooth L1 loss.
        roi_sigma (float): the sharpness of the head's.
        n_ohem_sample (int): the hardest regions per image that the head's loss counts.
        anchor_target_creator (AnchorTargetCreator): the RPN's targets.
        proposal_target_creator (ProposalTargetCreator): the head's samples and targets
            (default: every region, ``n_sample`` None).
        rng (numpy.random.Generator): the source of the creators' sampling; None: NumPy's
            global state, as in ChainerCV.
    """

    def __init__(self, light_head_rcnn, rpn_sigma: float = 3., roi_sigma: float = 1.,
                 n_ohem_sample: int = 256,
                 anchor_target_creator: AnchorTargetCreator | None = None,
                 proposal_target_creator: ProposalTargetCreator | None = None,
                 rng: numpy.random.Generator | None = None):
        super().__init__()
        with self.init_scope():
            self.light_head_rcnn = light_head_rcnn
        self.rpn_sigma = rpn_sigma
        self.roi_sigma = roi_sigma
        self.n_ohem_sample = n_ohem_sample
        self.anchor_target_creator = anchor_target_creator or AnchorTargetCreator()
        self.proposal_target_creator = (proposal_target_creator
                                        or ProposalTargetCreator(n_sample=None))
        self.loc_normalize_mean = light_head_rcnn.loc_normalize_mean
        self.loc_normalize_std = light_head_rcnn.loc_normalize_std
        self.rng = rng

    def forward(self, imgs, bboxes, labels, scales):
        """The loss of a batch of prepared images of one size.

        Args:
            imgs (Variable or array): ``(N, 3, H, W)`` float32, the prepared images.
            bboxes (sequence of arrays): ``N`` arrays ``(R_n, 4)`` float32 (or one array
                ``(N, R, 4)``), the boxes of each image in its prepared pixels.
            labels (sequence of arrays): ``N`` arrays ``(R_n,)`` int32 in
                ``[0, n_fg_class - 1]``.
            scales (sequence of float or array): ``(N,)``, the factor each original image was
                scaled by.

        Returns:
            Variable: the float32 scalar loss.

        Raises:
            ValueError: ``bboxes``, ``labels`` or ``scales`` does not give one entry per
                image.
        """
        bboxes, labels = _as_array(bboxes), _as_array(labels)
        scales = [float(s) for s in numpy.ravel(backend.to_cpu(_as_array(scales)))]
        n = imgs.shape[0]
        for name, value in (('bboxes', bboxes), ('labels', labels), ('scales', scales)):
            if len(value) != n:
                raise ValueError(f'LightHeadRCNNTrainChain: {name} must give one entry per '
                                 f'image, {n}, but gives {len(value)}')
        img_size = tuple(imgs.shape[2:])
        model = self.light_head_rcnn
        xp = self.xp
        rpn_features, roi_features = model.extractor(imgs)
        rpn_locs, rpn_scores, rois, roi_indices, anchor = model.rpn(rpn_features, img_size,
                                                                    scales)

        gt_rpn_locs, gt_rpn_labels = [], []
        sample_rois, sample_roi_indices, gt_roi_locs, gt_roi_labels = [], [], [], []
        for i, (bbox, label) in enumerate(zip(bboxes, labels)):
            gt_rpn_loc, gt_rpn_label = self.anchor_target_creator(bbox, anchor, img_size,
                                                                  rng=self.rng)
            gt_rpn_locs.append(gt_rpn_loc)
            gt_rpn_labels.append(gt_rpn_label)
            sample_roi, gt_roi_loc, gt_roi_label = self.proposal_target_creator(
                rois[roi_indices == i], bbox, label, self.loc_normalize_mean,
                self.loc_normalize_std, rng=self.rng)
            sample_rois.append(sample_roi)
            sample_roi_indices.append(xp.full((len(sample_roi),), i, dtype=numpy.int32))
            gt_roi_locs.append(gt_roi_loc)
            gt_roi_labels.append(gt_roi_label)
        gt_rpn_labels = xp.concatenate(gt_rpn_labels)
        roi_cls_locs, roi_scores = model.head(roi_features, xp.concatenate(sample_rois),
                                              xp.concatenate(sample_roi_indices))

        rpn_loc_loss = fast_rcnn_loc_loss(F.reshape(rpn_locs, (-1, 4)),
                                          xp.concatenate(gt_rpn_locs), gt_rpn_labels,
                                          self.rpn_sigma)
        rpn_cls_loss = F.softmax_cross_entropy(F.reshape(rpn_scores, (-1, 2)), gt_rpn_labels)
        roi_loc_loss, roi_cls_loss = ohem_loss(
            roi_cls_locs, roi_scores, xp.concatenate(gt_roi_locs),
            xp.concatenate(gt_roi_labels), self.n_ohem_sample * n, self.roi_sigma)
        roi_loc_loss = 2 * roi_loc_loss
        loss = rpn_loc_loss + rpn_cls_loss + roi_loc_loss + roi_cls_loss
        reporter.report({'rpn_loc_loss': rpn_loc_loss, 'rpn_cls_loss': rpn_cls_loss,
                         'roi_loc_loss': roi_loc_loss, 'roi_cls_loss': roi_cls_loss,
                         'loss': loss}, self)
        return loss


def _as_array(x):
    return getattr(x, 'array', x)
