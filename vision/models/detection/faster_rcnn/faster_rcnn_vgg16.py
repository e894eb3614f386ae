"""Faster R-CNN on VGG-16 (ChainerCV's ``FasterRCNNVGG16``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy

from framework import initializers
from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.classification.vgg.vgg16 import VGG16
from vision.models.detection.faster_rcnn.faster_rcnn import FasterRCNN
from vision.models.detection.faster_rcnn.pretrained import prepare_detector_weights
from vision.models.detection.faster_rcnn.region_proposal_network import RegionProposalNetwork
from vision.models.detection.faster_rcnn.vgg16_roi_head import VGG16RoIHead
from vision.weights import WeightSpec
from vision.weights.integrity import reporting_corruption

# RGB order: the channel means of the Caffe model of the authors.
_MEAN = numpy.array([122.7717, 115.9465, 102.9801], numpy.float32)[:, None, None]


@register_model('faster_rcnn_vgg16')
class FasterRCNNVGG16(FasterRCNN):
    """Faster R-CNN whose extractor is VGG-16 up to ``conv5_3`` (stride 16) and whose head is
    :class:`VGG16RoIHead` (7x7 RoI pooling, ``fc6``, ``fc7``).

    ``pretrained_model``:

    - a weight of the manifest by name (ChainerCV's ``'voc07'``, ``'voc0712'``, when the
      manifest lists them): ``n_fg_class`` follows from it;
    - ``'imagenet'``: VGG-16's ImageNet weights (the file of :class:`vision.models.VGG16`'s
      ``'imagenet'``, the manifest's ``faster_rcnn_vgg16/imagenet``) in the extractor and in
      the head's ``fc6`` and ``fc7``, the rest random, as ChainerCV copies them;
      ``n_fg_class`` must be given;
    - the path of an NPZ file in ChainerCV's layout (``extractor/conv1_1/conv/W``, ...,
      ``rpn/...``, ``head/...``): ``n_fg_class`` follows from its ``head/score``;
    - None: random initialisation; ``n_fg_class`` must be given.

    ChainerCV's published weights were trained with OpenCV's resize; :meth:`prepare` resizes
    with Pillow, as ChainerCV does without OpenCV.

    Args:
        n_fg_class (int): the number of classes, background excluded.
        pretrained_model (str, path or None): see above.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        ratios (sequence of float): the height-to-width ratios of the anchors.
        anchor_scales (sequence of float): the sides of the anchors in units of 16 pixels.
        vgg_initialW (callable): the initializer of VGG-16's layers (default: zero when weights
            are loaded, VGG-16's own else).
        rpn_initialW (callable): the initializer of the RPN (default: normal, 0.01).
        loc_initialW (callable): the initializer of ``head/cls_loc`` (default: normal, 0.001).
        score_initialW (callable): the initializer of ``head/score`` (default: normal, 0.01).
        proposal_creator_params (dict): the arguments of the RPN's
            :class:`ProposalCreator`.
        base_channels (int): the channels of the extractor's ``conv1_*``, which the other
            layers follow (see :class:`vision.models.VGG16`; the RPN and the head follow the
            extractor): 64, the paper's width, by default, the width of the published
            weights; 8 gives a detector for small problems such as the synthetic shapes.

    Raises:
        ValueError: ``n_fg_class`` is missing, or contradicts the weights (the message names
            both); ``base_channels`` is not 64 with ``pretrained_model='imagenet'``.

    Attributes:
        weight_spec (vision.weights.WeightSpec or None): the manifest's row of the weights
            loaded by name.
    """

    feat_stride = 16
    weight_spec = None

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None,
                 min_size: int = 600, max_size: int = 1000,
                 ratios: Sequence[float] = (0.5, 1, 2),
                 anchor_scales: Sequence[float] = (8, 16, 32),
                 vgg_initialW=None, rpn_initialW=None, loc_initialW=None, score_initialW=None,
                 proposal_creator_params: Mapping | None = None, base_channels: int = 64):
        n_fg_class, pretrained = prepare_detector_weights(
            self.model_name, n_fg_class, pretrained_model, _MEAN)
        # The weights of the extractor ('imagenet') fix no classes.
        imagenet = pretrained is not None and pretrained.spec is not None \
            and pretrained.spec.n_class is None
        if imagenet and base_channels != 64:
            raise ValueError(f'{self.model_name}: pretrained_model={pretrained_model!r} is '
                             f'VGG-16 of base_channels 64, but got base_channels='
                             f'{base_channels!r}')
        if vgg_initialW is None and pretrained_model:
            vgg_initialW = initializers.Zero()
        rpn_initialW = rpn_initialW or initializers.Normal(0.01)
        loc_initialW = loc_initialW or initializers.Normal(0.001)
        score_initialW = score_initialW or initializers.Normal(0.01)

        extractor = VGG16(initialW=vgg_initialW, base_channels=base_channels)
        extractor.pick = 'conv5_3'
        extractor.remove_unused()
        channels = 8 * base_channels
        rpn = RegionProposalNetwork(channels, channels, ratios=ratios,
                                    anchor_scales=anchor_scales, feat_stride=self.feat_stride,
                                    initialW=rpn_initialW,
                                    proposal_creator_params=proposal_creator_params)
        head = VGG16RoIHead(n_fg_class + 1, roi_size=7, spatial_scale=1. / self.feat_stride,
                            vgg_initialW=vgg_initialW, loc_initialW=loc_initialW,
                            score_initialW=score_initialW, in_channels=channels,
                            n_hidden=64 * base_channels)
        super().__init__(extractor, rpn, head, mean=_MEAN, min_size=min_size,
                         max_size=max_size)
        if imagenet:
            self._load_imagenet_vgg16(pretrained.spec)
        elif pretrained is not None:
            pretrained.load(self)

    def _load_imagenet_vgg16(self, spec: WeightSpec) -> None:
        """Loads VGG-16's weights as ChainerCV's ``_copy_imagenet_pretrained_vgg16`` copies
        them: ``conv1_1`` to ``conv5_3`` into the extractor, ``fc6`` and ``fc7`` into the
        head; the RPN and the head's ``cls_loc`` and ``score`` keep their initial values.

        Args:
            spec (vision.weights.WeightSpec): the manifest's row, whose file is a
                :class:`vision.models.VGG16` saved by ``save_npz``.
        """
        path = spec.local_path()
        with reporting_corruption(spec, path, 'npz'):
            load_npz(path, self.extractor)
            load_npz(path, self.head.fc6, path='fc6/')
            load_npz(path, self.head.fc7, path='fc7/')
        self.weight_spec = spec
