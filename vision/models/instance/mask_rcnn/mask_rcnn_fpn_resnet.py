"""Mask R-CNN with FPN on ResNet-50 and ResNet-101 (ChainerCV's ``MaskRCNNFPNResNet50``,
``MaskRCNNFPNResNet101``): the FPN detectors with a mask head."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

import framework.functions as F
from framework import backend
from framework.config import no_backprop_mode, using_config
from vision.models._registry import register_model
from vision.models.classification.resnet.resnet import ResNet50, ResNet101
from vision.models.detection.fpn.faster_rcnn_fpn_resnet import (
    OPTIONS,
    SCALES,
    FasterRCNNFPNResNet,
)
from vision.models.instance.mask_rcnn.mask_head import MaskHead


class MaskRCNNFPNResNet(FasterRCNNFPNResNet):
    """Mask R-CNN (He et al., 2017) on the FPN detector :class:`FasterRCNNFPNResNet`: the
    same extractor, RPN and box head, and a :class:`MaskHead` (``mask_head``) that predicts
    a mask for each detection.

    :meth:`predict` detects objects as the detector does (boxes of probability at least
    :attr:`score_thresh` that survive non-maximum suppression at :attr:`nms_thresh`, see
    :meth:`use_preset`), then pools each detected box, scaled to the prepared image, on its
    level, and pastes the sigmoid of the mask head's grid of the box's class onto the image
    (:meth:`MaskHead.decode`). ``hybridize()`` also runs the mask head's layers as a static
    graph (traced per number of detections).

    The arguments are :class:`FasterRCNNFPNResNet`'s, and one more option, ``mask_paste``:
    ``'chainercv'`` (by default, :func:`~vision.models.instance.mask_rcnn.mask_coding.
    segm_to_mask`) or ``'torchvision'`` (:func:`~vision.models.instance.mask_rcnn.
    mask_coding.paste_segm_torchvision`). With ``per_axis_rescale``, the detected boxes are
    pooled where they were decoded, in the resized image (their sides times the resized side
    over the original one), as torchvision pools them. The weights by name are the
    manifest's rows of the registered name (ChainerCV's ``'coco'``; ``'torchvision-coco'``,
    torchvision's ``maskrcnn_resnet50_fpn`` converted by
    :mod:`~vision.models.instance.mask_rcnn.torchvision_mask_rcnn`, which brings its options
    and mean unless given; ``'imagenet'``, ResNet's weights in the extractor's base, the rest
    random, for training); an NPZ file in ChainerCV's layout also holds ``mask_head/...``.
    """

    task = 'instance_segmentation'
    _options = {**OPTIONS, 'mask_paste': 'chainercv'}

    def _add_heads(self, n_class: int, channels: int) -> None:
        """Adds the mask head (``mask_head``)."""
        with self.init_scope():
            self.mask_head = MaskHead(n_class, SCALES, channels)

    def predict(self, imgs: Iterable[numpy.ndarray]) -> tuple[list, list, list]:
        """Segments the objects of images, one image at a time.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``), values 0-255, any real dtype, of any size.

        Returns:
            tuple of three lists, one entry per image:

            - **masks**: bool ``(R, H, W)``, the mask of each object at the image's size;
            - **labels**: int32 ``(R,)`` in ``[0, n_class - 2]``;
            - **scores**: float32 ``(R,)``, the class probabilities of the boxes.

            Objects are ordered by label, then by decreasing score; an image without objects
            gives arrays of shapes ``(0, H, W)`` and ``(0,)``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels, or has no pixel.
            TypeError: an image is not a real array.
        """
        masks, labels, scores = [], [], []
        for i, img in enumerate(imgs):
            img = self._check_image(i, img)
            hs, scale, bbox, label, score = self._detect(img)
            masks.append(self._segment(hs, scale, bbox, label, img.shape[1:]))
            labels.append(backend.to_cpu(label))
            scores.append(backend.to_cpu(score))
        return masks, labels, scores

    def _segment(self, hs, scale: float, bbox, label, size: tuple[int, int]) -> numpy.ndarray:
        """The masks ``(R, H, W)`` bool (on the CPU) of the detections of one image: its
        levels ``hs``, its scale, ``bbox`` ``(R, 4)`` in its pixels and ``label`` ``(R,)``
        (on the model's device), its ``size``."""
        xp = self.xp
        if self.per_axis_rescale:
            ratio = (numpy.asarray(self.resized_size(size)[1], numpy.float32)
                     / numpy.asarray(size, numpy.float32))
            rois = (bbox * xp.asarray(numpy.tile(ratio, 2))).astype(numpy.float32)
        else:
            rois = (bbox * numpy.float32(scale)).astype(numpy.float32)
        rois, roi_indices, order = self.mask_head.distribute(
            rois, xp.zeros(len(bbox), numpy.int32))
        with using_config('train', False), no_backprop_mode():
            segms = self.mask_head.infer(self.mask_head.pool(hs, rois, roi_indices))
            probs = F.sigmoid(segms).array[order]
        return self.mask_head.decode([probs], [bbox], [label], [size],
                                     paste=self.mask_paste)[0]


@register_model('mask_rcnn_fpn_resnet50')
class MaskRCNNFPNResNet50(MaskRCNNFPNResNet):
    """Mask R-CNN with FPN on ResNet-50; see :class:`MaskRCNNFPNResNet` and
    :class:`~vision.models.FasterRCNNFPNResNet50` for the arguments."""

    _base = ResNet50


@register_model('mask_rcnn_fpn_resnet101')
class MaskRCNNFPNResNet101(MaskRCNNFPNResNet):
    """Mask R-CNN with FPN on ResNet-101; see :class:`MaskRCNNFPNResNet` and
    :class:`~vision.models.FasterRCNNFPNResNet101` for the arguments."""

    _base = ResNet101
