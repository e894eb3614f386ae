"""The loss of Mask R-CNN for training (the ``TrainChain`` of ChainerCV's
``examples/fpn/train_multi.py`` given masks)."""

from __future__ import annotations

import numpy

import framework.functions as F
from vision.models.detection.fpn.faster_rcnn_fpn_train_chain import FasterRCNNFPNTrainChain
from vision.models.instance.mask_rcnn.mask_head_loss import (
    mask_head_loss_post,
    mask_head_loss_pre,
)


class MaskRCNNFPNTrainChain(FasterRCNNFPNTrainChain):
    """Computes the loss of a :class:`MaskRCNNFPNResNet` on a batch of images and their
    masks, as ChainerCV's example trains it: the FPN detector's loss
    (:class:`~vision.models.detection.fpn.FasterRCNNFPNTrainChain`) plus the mask head's
    (:func:`mask_head_loss_pre` on the foreground regions of the box head's sample,
    :func:`mask_head_loss_post`), reported as ``loss/mask``.

    A batch without foreground regions runs the mask head on one dummy region and adds 0
    times its logits (ChainerCV's way to give every parameter a gradient, of zeros).

    Args:
        model (MaskRCNNFPNResNet): the model trained.
        rng (numpy.random.Generator): the source of the losses' sampling; None: NumPy's global
            state, as in ChainerCV.
    """

    def forward(self, imgs, bboxes, labels, masks):
        """The loss of a batch of prepared images.

        Args:
            imgs (sequence of arrays): ``(3, H, W)`` float32, scaled with the mean subtracted
                (as :meth:`FasterRCNN.prepare` makes them, before the padding).
            bboxes (sequence of arrays): ``(R, 4)`` float32, each image's boxes in its pixels.
            labels (sequence of arrays): ``(R,)`` int32, their labels in
                ``[0, n_fg_class - 1]``.
            masks (sequence of arrays): ``(R, H, W)`` bool, their masks, at the size of their
                image.

        Returns:
            Variable: the float32 scalar loss.
        """
        losses, hs, rois, roi_indices, gt_labels, bboxes = self._detector_losses(
            imgs, bboxes, labels)
        head = self.model.mask_head
        mask_rois, mask_roi_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
            rois, roi_indices, masks, bboxes, gt_labels, head.segm_size)
        if sum(len(roi) for roi in mask_rois) > 0:
            segms = head(hs, mask_rois, mask_roi_indices)
            losses['loss/mask'] = mask_head_loss_post(segms, mask_roi_indices, gt_segms,
                                                      gt_mask_labels, len(imgs))
        else:
            xp = self.xp
            mask_rois[0] = xp.asarray([[0, 0, 1, 1]], numpy.float32)
            mask_roi_indices[0] = xp.zeros(1, numpy.int32)
            losses['loss/mask'] = 0 * F.sum(head(hs, mask_rois, mask_roi_indices))
        return self._report(losses)
