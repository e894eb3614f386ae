"""The loss of the FPN detectors for training (the ``TrainChain`` of ChainerCV's
``examples/fpn/train_multi.py``)."""

from __future__ import annotations

import numpy

from framework import reporter
from framework.config import using_config
from framework.links import Chain
from vision.models.detection.fpn.bbox_head_loss import bbox_head_loss_post, bbox_head_loss_pre
from vision.models.detection.fpn.faster_rcnn import pad_images
from vision.models.detection.fpn.rpn_loss import rpn_loss


class FasterRCNNFPNTrainChain(Chain):
    """Computes the loss of an FPN :class:`FasterRCNN` on a batch of images, as ChainerCV's
    example trains it.

    The images are padded together (:func:`pad_images`); the extractor runs with ``train``
    off (its batch normalizations use their statistics, as frozen layers of a detector
    trained from ImageNet weights do), the rest in training mode. The loss is the sum of the
    RPN's (:func:`rpn_loss`, on every anchor) and the box head's
    (:func:`bbox_head_loss_pre` on the RPN's proposals and the ground-truth boxes,
    :func:`bbox_head_loss_post`); each part is reported under ChainerCV's names
    (``loss/rpn/loc``, ``loss/rpn/conf``, ``loss/bbox_head/loc``, ``loss/bbox_head/conf``,
    ``loss``).

    Args:
        model (FasterRCNN): the model trained.
        rng (numpy.random.Generator): the source of the losses' sampling; None: NumPy's global
            state, as in ChainerCV.
    """

    def __init__(self, model, rng: numpy.random.Generator | None = None):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.rng = rng

    def forward(self, imgs, bboxes, labels):
        """The loss of a batch of prepared images.

        Args:
            imgs (sequence of arrays): ``(3, H, W)`` float32, scaled with the mean subtracted
                (as :meth:`FasterRCNN.prepare` makes them, before the padding).
            bboxes (sequence of arrays): ``(R, 4)`` float32, each image's boxes in its pixels.
            labels (sequence of arrays): ``(R,)`` int32, their labels in
                ``[0, n_fg_class - 1]``.

        Returns:
            Variable: the float32 scalar loss.
        """
        return self._report(self._detector_losses(imgs, bboxes, labels)[0])

    def _detector_losses(self, imgs, bboxes, labels) -> tuple:
        """The RPN's and the box head's losses of a batch (the arguments of :meth:`forward`),
        and what a head trained on the box head's sample starts from (Mask R-CNN's mask head).

        Returns:
            tuple: ``(losses, hs, rois, roi_indices, gt_labels, bboxes)``: the four losses by
            the names they are reported under, in ChainerCV's order of summation; the levels;
            the sampled regions, their images and labels per level
            (:func:`bbox_head_loss_pre`); the boxes on the model's device.
        """
        model, xp = self.model, self.xp
        x = pad_images([xp.asarray(img) for img in imgs], model.stride)
        bboxes = [xp.asarray(bbox, numpy.float32) for bbox in bboxes]
        labels = [xp.asarray(label, numpy.int32) for label in labels]
        with using_config('train', False):
            hs = model.extractor(x)
        locs, confs = model.rpn(hs)
        anchors = model.rpn.anchors((h.shape[2:] for h in hs), x.shape[2:])
        sizes = [img.shape[1:] for img in imgs]
        rpn_loc_loss, rpn_conf_loss = rpn_loss(locs, confs, anchors, sizes, bboxes,
                                               rng=self.rng)
        rois, roi_indices = model.rpn.decode(locs, confs, anchors, x.shape, sizes)
        rois = xp.concatenate([rois] + bboxes)
        roi_indices = xp.concatenate([roi_indices] + [
            xp.full(len(bbox), i, numpy.int32) for i, bbox in enumerate(bboxes)])
        rois, roi_indices = model.bbox_head.distribute(rois, roi_indices)
        rois, roi_indices, gt_locs, gt_labels = bbox_head_loss_pre(
            rois, roi_indices, model.bbox_head.std, bboxes, labels, rng=self.rng)
        head_locs, head_confs = model.bbox_head(hs, rois, roi_indices)
        head_loc_loss, head_conf_loss = bbox_head_loss_post(
            head_locs, head_confs, roi_indices, gt_locs, gt_labels, len(imgs))
        losses = {'loss/rpn/loc': rpn_loc_loss, 'loss/rpn/conf': rpn_conf_loss,
                  'loss/bbox_head/loc': head_loc_loss, 'loss/bbox_head/conf': head_conf_loss}
        return losses, hs, rois, roi_indices, gt_labels, bboxes

    def _report(self, losses: dict):
        """Reports the losses and their sum (``loss``, summed in order) and returns the sum."""
        parts = iter(losses.values())
        loss = next(parts)
        for part in parts:
            loss = loss + part
        reporter.report({'loss': loss, **losses}, self)
        return loss
