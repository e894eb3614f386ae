"""Light-Head R-CNN on ResNet-101 (ChainerCV's ``LightHeadRCNNResNet101``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy

from framework import initializers
from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.detection.faster_rcnn.pretrained import prepare_detector_weights
from vision.models.detection.faster_rcnn.region_proposal_network import RegionProposalNetwork
from vision.models.detection.light_head_rcnn.light_head_rcnn import LightHeadRCNN
from vision.models.detection.light_head_rcnn.light_head_rcnn_resnet101_head import (
    LightHeadRCNNResNet101Head,
)
from vision.models.detection.light_head_rcnn.resnet101_extractor import ResNet101Extractor
from vision.weights import WeightSpec
from vision.weights.integrity import reporting_corruption

# RGB order: the channel means of the Caffe model of Faster R-CNN's authors, as ChainerCV's.
_MEAN = numpy.array([122.7717, 115.9465, 102.9801], numpy.float32)[:, None, None]


@register_model('light_head_rcnn_resnet101')
class LightHeadRCNNResNet101(LightHeadRCNN):
    """Light-Head R-CNN whose extractor is :class:`ResNet101Extractor` (the RPN on ``res4``,
    the head on the dilated ``res5``, both at stride 16) and whose head is
    :class:`LightHeadRCNNResNet101Head`.

    ``pretrained_model``:

    - a weight of the manifest by name (ChainerCV's ``'coco'``): ``n_fg_class`` follows from
      it;
    - ``'imagenet'``: ResNet-101's ImageNet weights (the file of
      :class:`vision.models.ResNet101`'s ``'imagenet'`` of arch ``'he'``) in the extractor,
      the RPN and the head random, as ChainerCV copies them; ``n_fg_class`` must be given;
    - the path of an NPZ file in ChainerCV's layout (``extractor/conv1/conv/W``, ...,
      ``rpn/...``, ``head/...``): ``n_fg_class`` follows from its ``head/score``;
    - None: random initialisation; ``n_fg_class`` must be given.

    ChainerCV's published weights were trained with OpenCV's resize; :meth:`prepare` resizes
    with Pillow, as ChainerCV does without OpenCV.

    Args:
        n_fg_class (int): the number of classes, background excluded.
        pretrained_model (str, path or None): see above.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        roi_size (int): the side of the head's pooled bins.
        ratios (sequence of float): the height-to-width ratios of the anchors.
        anchor_scales (sequence of float): the sides of the anchors in units of 16 pixels.
        loc_normalize_mean (tuple of float): the means of the head's offsets.
        loc_normalize_std (tuple of float): the deviations of the head's offsets.
        resnet_initialW (callable): the initializer of the extractor (default: zero when
            weights are loaded, He normal else).
        rpn_initialW (callable): the initializer of the RPN (default: normal, 0.01).
        global_module_initialW (callable): the initializer of the head's global context
            module (default: normal, 0.01).
        loc_initialW (callable): the initializer of ``head/cls_loc`` (default: normal, 0.001).
        score_initialW (callable): the initializer of ``head/fc1`` and ``head/score``
            (default: normal, 0.01).
        proposal_creator_params (dict): the arguments of the RPN's
            :class:`~vision.models.detection.faster_rcnn.ProposalCreator` (default:
            :attr:`proposal_creator_params`).

    Raises:
        ValueError: ``n_fg_class`` is missing, or contradicts the weights (the message names
            both).

    Attributes:
        weight_spec (vision.weights.WeightSpec or None): the manifest's row of the weights
            loaded by name.
    """

    feat_stride = 16
    #: ChainerCV's proposals for this model: 1000 at test time, none dropped for its size.
    proposal_creator_params = {'nms_thresh': 0.7, 'n_train_pre_nms': 12000,
                               'n_train_post_nms': 2000, 'n_test_pre_nms': 6000,
                               'n_test_post_nms': 1000, 'force_cpu_nms': False, 'min_size': 0}
    weight_spec = None

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None,
                 min_size: int = 800, max_size: int = 1333, roi_size: int = 7,
                 ratios: Sequence[float] = (0.5, 1, 2),
                 anchor_scales: Sequence[float] = (2, 4, 8, 16, 32),
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.1, 0.1, 0.2, 0.2),
                 resnet_initialW=None, rpn_initialW=None, global_module_initialW=None,
                 loc_initialW=None, score_initialW=None,
                 proposal_creator_params: Mapping | None = None):
        n_fg_class, pretrained = prepare_detector_weights(
            self.model_name, n_fg_class, pretrained_model, _MEAN)
        # The weights of the extractor ('imagenet') fix no classes.
        imagenet = pretrained is not None and pretrained.spec is not None \
            and pretrained.spec.n_class is None
        if resnet_initialW is None and pretrained_model:
            # Sampling takes time, and the weights overwrite the extractor's values anyway.
            resnet_initialW = initializers.Zero()
        rpn_initialW = rpn_initialW or initializers.Normal(0.01)
        global_module_initialW = global_module_initialW or initializers.Normal(0.01)
        loc_initialW = loc_initialW or initializers.Normal(0.001)
        score_initialW = score_initialW or initializers.Normal(0.01)
        if proposal_creator_params is None:
            proposal_creator_params = self.proposal_creator_params

        extractor = ResNet101Extractor(initialW=resnet_initialW)
        rpn = RegionProposalNetwork(1024, 512, ratios=ratios, anchor_scales=anchor_scales,
                                    feat_stride=self.feat_stride, initialW=rpn_initialW,
                                    proposal_creator_params=proposal_creator_params)
        head = LightHeadRCNNResNet101Head(
            n_fg_class + 1, roi_size=roi_size, spatial_scale=1. / self.feat_stride,
            global_module_initialW=global_module_initialW, loc_initialW=loc_initialW,
            score_initialW=score_initialW)
        super().__init__(extractor, rpn, head, _MEAN, min_size=min_size, max_size=max_size,
                         loc_normalize_mean=loc_normalize_mean,
                         loc_normalize_std=loc_normalize_std)
        if imagenet:
            self._load_imagenet_resnet(pretrained.spec)
        elif pretrained is not None:
            pretrained.load(self)

    def _load_imagenet_resnet(self, spec: WeightSpec) -> None:
        """Loads ResNet-101's ImageNet weights into the extractor as ChainerCV's
        ``_copy_imagenet_pretrained_resnet`` copies them: ``conv1`` to ``res5`` with their
        batch normalizations' statistics; the RPN and the head keep their initial values.

        Args:
            spec (vision.weights.WeightSpec): the manifest's row, whose file is a ResNet-101
                of arch ``'he'`` saved by ``save_npz`` (its ``fc6`` is not read).
        """
        path = spec.local_path()
        with reporting_corruption(spec, path, 'npz'):
            load_npz(path, self.extractor)
        self.weight_spec = spec
