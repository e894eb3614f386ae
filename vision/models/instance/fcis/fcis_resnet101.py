"""FCIS on ResNet-101 (ChainerCV's experimental ``FCISResNet101``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy

from framework import initializers
from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.detection.faster_rcnn.pretrained import prepare_detector_weights
from vision.models.detection.faster_rcnn.region_proposal_network import RegionProposalNetwork
from vision.models.instance.fcis.fcis import FCIS
from vision.models.instance.fcis.fcis_resnet101_head import FCISResNet101Head
from vision.models.instance.fcis.resnet101_extractor import ResNet101Extractor
from vision.weights import WeightSpec
from vision.weights.integrity import reporting_corruption

# RGB order: the channel means of the original FCIS (MXNet) model.
_MEAN = numpy.array([123.15, 115.90, 103.06], numpy.float32)[:, None, None]


@register_model('fcis_resnet101')
class FCISResNet101(FCIS):
    """FCIS whose extractor is :class:`ResNet101Extractor` (``res4`` for the RPN, the dilated
    ``res5`` for the head, stride 16) and whose head is :class:`FCISResNet101Head`.

    ``pretrained_model``:

    - a weight of the manifest by name (ChainerCV's ``'sbd'``, ``'coco'``): ``n_fg_class``
      follows from it;
    - ``'imagenet'``: ResNet-101's ImageNet weights (arch ``'he'``) in the extractor, the RPN
      and the head random, as ChainerCV copies them; ``n_fg_class`` must be given;
    - the path of an NPZ file in ChainerCV's layout (``extractor/res2/a/conv1/conv/W``, ...,
      ``rpn/...``, ``head/...``): ``n_fg_class`` follows from its ``head/cls_seg/b``;
    - None: random initialisation; ``n_fg_class`` must be given.

    ChainerCV's published weights were trained with OpenCV's resize; :meth:`prepare` and mask
    voting resize with Pillow, as ChainerCV does without OpenCV.

    Args:
        n_fg_class (int): the number of classes, background excluded.
        pretrained_model (str, path or None): see above.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        roi_size (int): the side of the pooled grids and of the masks.
        group_size (int): the relative positions of the score maps along each side.
        ratios (sequence of float): the height-to-width ratios of the anchors.
        anchor_scales (sequence of float): the sides of the anchors in units of 16 pixels
            (default: the weights', else ``(8, 16, 32)``; ChainerCV's ``'coco'`` weights have
            ``(4, 8, 16, 32)``).
        loc_normalize_mean (tuple of float): the means of the head's offsets.
        loc_normalize_std (tuple of float): the deviations of the head's offsets.
        iter2 (bool): the head pools the regions moved by its offsets a second time.
        resnet_initialW (callable): the initializer of the extractor (default: zero when
            weights are loaded, He normal else).
        rpn_initialW (callable): the initializer of the RPN (default: normal, 0.01).
        head_initialW (callable): the initializer of the head (default: normal, 0.01).
        proposal_creator_params (dict): arguments of the RPN's ``ProposalCreator`` that
            replace those of :attr:`proposal_creator_params` (default: the weights'; the
            ``'coco'`` weights' proposals are of at least 2 pixels).
        base_channels (int): the channels of the extractor's ``conv1``, which the other
            layers follow (see :class:`ResNet101Extractor`; the RPN and the head follow the
            extractor): 64, the width of the published weights, by default; smaller ones build
            a small model for tests.

    Raises:
        ValueError: ``n_fg_class`` is missing, or contradicts the weights (the message names
            both), as ``anchor_scales`` does; ``base_channels`` is not 64 with weights by
            name.

    Attributes:
        weight_spec (vision.weights.WeightSpec or None): the manifest's row of the weights
            loaded by name.
    """

    feat_stride = 16
    weight_spec = None
    #: ChainerCV's default arguments of the RPN's proposal creator for FCIS
    proposal_creator_params = {'nms_thresh': 0.7, 'n_train_pre_nms': 6000,
                               'n_train_post_nms': 300, 'n_test_pre_nms': 6000,
                               'n_test_post_nms': 300, 'force_cpu_nms': False, 'min_size': 16}

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None,
                 min_size: int = 600, max_size: int = 1000, roi_size: int = 21,
                 group_size: int = 7, ratios: Sequence[float] = (0.5, 1, 2),
                 anchor_scales: Sequence[float] | None = None,
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.2, 0.2, 0.5, 0.5),
                 iter2: bool = True, resnet_initialW=None, rpn_initialW=None,
                 head_initialW=None, proposal_creator_params: Mapping | None = None,
                 base_channels: int = 64):
        n_fg_class, pretrained = prepare_detector_weights(
            self.model_name, n_fg_class, pretrained_model, _MEAN,
            score_bias='head/cls_seg/b', channels_per_class=2 * group_size ** 2)
        spec = pretrained.spec if pretrained is not None else None
        if spec is not None and base_channels != 64:
            raise ValueError(f'{self.model_name}: pretrained_model={pretrained_model!r} is '
                             f'of base_channels 64, but got base_channels={base_channels!r}')
        # The weights of the extractor ('imagenet') fix no classes.
        imagenet = spec is not None and spec.n_class is None
        anchor_scales, proposal_creator_params = self._weight_arguments(
            spec, pretrained_model, anchor_scales, proposal_creator_params)
        self.proposal_creator_params = {**self.proposal_creator_params,
                                        **proposal_creator_params}
        if resnet_initialW is None and pretrained_model:
            resnet_initialW = initializers.Zero()
        if rpn_initialW is None:
            rpn_initialW = initializers.Normal(0.01)
        extractor = ResNet101Extractor(initialW=resnet_initialW, base_channels=base_channels)
        rpn = RegionProposalNetwork(16 * base_channels, 8 * base_channels, ratios=ratios,
                                    anchor_scales=anchor_scales,
                                    feat_stride=self.feat_stride, initialW=rpn_initialW,
                                    proposal_creator_params=self.proposal_creator_params)
        head = FCISResNet101Head(n_fg_class + 1, roi_size=roi_size, group_size=group_size,
                                 spatial_scale=1. / self.feat_stride,
                                 loc_normalize_mean=loc_normalize_mean,
                                 loc_normalize_std=loc_normalize_std, iter2=iter2,
                                 initialW=head_initialW, in_channels=32 * base_channels,
                                 mid_channels=16 * base_channels)
        super().__init__(extractor, rpn, head, _MEAN, min_size, max_size, loc_normalize_mean,
                         loc_normalize_std)
        if imagenet:
            self._load_imagenet_resnet(pretrained.spec)
        elif pretrained is not None:
            pretrained.load(self)

    def _weight_arguments(self, spec: WeightSpec | None, pretrained_model, anchor_scales,
                          proposal_creator_params) -> tuple:
        """``anchor_scales`` and ``proposal_creator_params`` as given, or as the manifest's
        row of the weights fixes them (its ``model_kwargs``), or the defaults.

        Raises:
            ValueError: ``anchor_scales`` contradicts the weights'.
        """
        fixed = {} if spec is None else spec.model_kwargs
        fixed_scales = fixed.get('anchor_scales')
        if anchor_scales is None:
            anchor_scales = (8, 16, 32) if fixed_scales is None else fixed_scales
        elif fixed_scales is not None and tuple(anchor_scales) != tuple(fixed_scales):
            raise ValueError(f'{self.model_name}: anchor_scales={tuple(anchor_scales)} '
                             f'contradicts the weights {pretrained_model!r}, made for '
                             f'anchor_scales={tuple(fixed_scales)}: leave it out')
        if proposal_creator_params is None:
            proposal_creator_params = fixed.get('proposal_creator_params', {})
        return anchor_scales, proposal_creator_params

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
