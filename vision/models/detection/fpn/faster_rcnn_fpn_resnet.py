"""Faster R-CNN with FPN on ResNet-50 and ResNet-101 (ChainerCV's ``FasterRCNNFPNResNet50``,
``FasterRCNNFPNResNet101``)."""

from __future__ import annotations

import os

import numpy

from framework import initializers
from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.classification.resnet.resnet import IMAGENET_MEAN, ResNet50, ResNet101
from vision.models.detection.faster_rcnn.pretrained import prepare_detector_weights
from vision.models.detection.fpn.bbox_head import BboxHead
from vision.models.detection.fpn.faster_rcnn import FasterRCNN
from vision.models.detection.fpn.fpn import FPN
from vision.models.detection.fpn.rpn import RPN
from vision.weights import WeightSpec, file_kind, get_converter
from vision.weights.integrity import reporting_corruption

#: ChainerCV's pool1 of the FPN backbones: 3x3 max pooling, stride 2, padding 1, not covering
#: the whole input.
POOL1_KWARGS = {'ksize': 3, 'stride': 2, 'pad': 1, 'cover_all': False}
#: The size of the five levels relative to the input.
SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
#: The options of :class:`FasterRCNNFPNResNet` and their values by default, ChainerCV's: the
#: ResNet's arch and the options of :class:`RPN` and :class:`FasterRCNN` (see them).
OPTIONS = {
    'arch': 'he',
    'antialias': True, 'per_axis_rescale': False, 'min_bbox_size': 0.,
    'detections_per_img': None,
    'anchor_layout': 'chainercv', 'clip_to_image': False, 'min_roi_size': 0.,
    'rank_by_probability': False,
}
_RPN_OPTIONS = ('anchor_layout', 'clip_to_image', 'min_roi_size', 'rank_by_probability')
_DETECTOR_OPTIONS = ('antialias', 'per_axis_rescale', 'min_bbox_size', 'detections_per_img')


class FasterRCNNFPNResNet(FasterRCNN):
    """Faster R-CNN with FPN on a ResNet of Kaiming He's layout (arch ``'he'``, or ``'fb'``
    as an option): ``res2`` to ``res5`` feed :class:`FPN`, whose fifth level subsamples the
    fourth; :class:`RPN` and :class:`BboxHead` on it. Subclasses set ``_base``, the ResNet
    class.

    ``pretrained_model``:

    - a weight of the manifest by name (ChainerCV's ``'coco'``; ``'torchvision-coco'``,
      torchvision's ``fasterrcnn_resnet50_fpn`` converted by
      :mod:`~vision.models.detection.fpn.torchvision_fpn`, which brings its options and mean
      unless given): ``n_fg_class`` follows from it;
    - ``'imagenet'``: ResNet's ImageNet weights (the file of :class:`vision.models.ResNet50`'s
      or ``ResNet101``'s ``'imagenet'`` of arch ``'he'``) in the extractor's base, the pyramid,
      RPN and head random, as ChainerCV copies them; ``n_fg_class`` must be given;
    - the path of an NPZ file in ChainerCV's layout (``extractor/base/conv1/conv/W``, ...,
      ``rpn/...``, ``bbox_head/...``): ``n_fg_class`` follows from its ``bbox_head/conf/b``;
    - the path of a ResNet classifier's NPZ file (``conv1/conv/W``, ``res2/...``, ``fc6/...``,
      as ``save_npz`` writes :class:`vision.models.ResNet50` or ``ResNet101``, e.g. one that
      ``scripts/train_imagenet.py`` trained): loaded into the extractor's base as
      ``'imagenet'`` is; ``base_channels`` must be its width and ``arch`` the one it was
      trained with (its files do not say), ``n_fg_class`` must be given;
    - None: random initialisation; ``n_fg_class`` must be given.

    ChainerCV's published weights were trained with OpenCV's resize; :meth:`prepare` resizes
    with Pillow, as ChainerCV does without OpenCV.

    Args:
        n_fg_class (int): the number of classes, background excluded.
        pretrained_model (str, path or None): see above.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        base_channels (int): the channels of ResNet's ``conv1`` (see
            :class:`vision.models.ResNet50`), which the rest follows: the pyramid, the RPN and
            the head's regions have four times as many, its hidden layers sixteen times. 64,
            the published width, by default; 8 gives a detector for small problems.
        mean (array or None): ``(3, 1, 1)`` (or 3 values), RGB 0-255, subtracted from the
            images; None for the weights' (ChainerCV's ImageNet mean without weights).
        options: keyword arguments of ChainerCV's behaviour by default (:data:`OPTIONS`):
            ``arch`` (``'he'``, stride on the first 1x1 convolution of a stage; ``'fb'`` on
            the 3x3, torchvision's), the :class:`RPN`'s ``anchor_layout``,
            ``clip_to_image``, ``min_roi_size`` and ``rank_by_probability``, and the
            :class:`FasterRCNN`'s ``antialias``, ``per_axis_rescale``, ``min_bbox_size`` and
            ``detections_per_img``; weights loaded by name set those they need unless given.

    Raises:
        ValueError: ``n_fg_class`` is missing, or contradicts the weights (the message names
            both); ``base_channels`` is not 64, or ``arch`` not ``'he'``, with
            ``pretrained_model='imagenet'``.
        TypeError: an option is unknown.

    Attributes:
        weight_spec (vision.weights.WeightSpec or None): the manifest's row of the weights
            loaded by name.
    """

    _base: type = ResNet50
    #: The options and their defaults; a subclass adds those of its heads, which become
    #: attributes of the model.
    _options: dict = OPTIONS
    weight_spec = None

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None,
                 min_size: int = 800, max_size: int = 1333, base_channels: int = 64,
                 mean=None, **options):
        unknown = sorted(set(options) - set(self._options))
        if unknown:
            raise TypeError(f'{self.model_name}: unexpected keyword arguments {unknown} (the '
                            f'options are {sorted(self._options)})')
        classifier = self._classifier_file(pretrained_model, n_fg_class, base_channels)
        n_fg_class, pretrained = prepare_detector_weights(
            self.model_name, n_fg_class, None if classifier else pretrained_model,
            IMAGENET_MEAN, score_bias='bbox_head/conf/b')
        spec = pretrained.spec if pretrained is not None else None
        if spec is not None and mean is None:
            mean = spec.preprocessing.model_mean()
        weight_options = {} if spec is None else get_converter(spec.converter).model_kwargs
        options = {**self._options, **weight_options, **options}
        # The weights of the extractor ('imagenet') fix no classes.
        imagenet = pretrained is not None and pretrained.spec is not None \
            and pretrained.spec.n_class is None
        if imagenet and base_channels != 64:
            raise ValueError(f'{self.model_name}: pretrained_model={pretrained_model!r} is '
                             f'ResNet of base_channels 64, but got base_channels='
                             f'{base_channels!r}')
        if imagenet and options['arch'] != 'he':
            raise ValueError(f'{self.model_name}: pretrained_model={pretrained_model!r} is '
                             f"ResNet of arch 'he', but got arch={options['arch']!r}")
        # Sampling takes time, and the weights overwrite the base's values anyway.
        initialW = initializers.Zero() if pretrained is not None or classifier else None
        base = self._base(n_class=1, arch=options['arch'], initialW=initialW,
                          pool1_kwargs=POOL1_KWARGS, base_channels=base_channels, mean=mean)
        base.pick = ('res2', 'res3', 'res4', 'res5')
        base.remove_unused()
        channels = 4 * base_channels
        extractor = FPN(base, 4, SCALES, in_channels=[channels << i for i in range(4)],
                        channels=channels)
        rpn = RPN(SCALES, channels, **{k: options[k] for k in _RPN_OPTIONS})
        super().__init__(extractor, rpn,
                         BboxHead(n_fg_class + 1, SCALES, channels, n_hidden=16 * base_channels),
                         min_size=min_size, max_size=max_size,
                         **{k: options[k] for k in _DETECTOR_OPTIONS})
        self.arch = options['arch']
        for key in set(self._options) - set(OPTIONS):
            setattr(self, key, options[key])
        self._add_heads(n_fg_class + 1, channels)
        if imagenet:
            self._load_imagenet_resnet(pretrained.spec)
        elif classifier:
            load_npz(classifier, self.extractor.base)
        elif pretrained is not None:
            pretrained.load(self)

    def _classifier_file(self, pretrained_model, n_fg_class, base_channels) -> str | None:
        """The path of ``pretrained_model`` when it is a ResNet classifier's NPZ file, checked
        against the arguments; None for anything else.

        Raises:
            ValueError: ``n_fg_class`` is missing, or ``base_channels`` is not the file's
                width (the message names both).
        """
        if not pretrained_model or not os.path.isfile(pretrained_model) \
                or file_kind(pretrained_model) != 'npz':
            return None
        path = os.fspath(pretrained_model)
        with numpy.load(path) as npz:
            if 'conv1/conv/W' not in npz.files or 'res5/a/conv1/conv/W' not in npz.files:
                return None
            width = npz['conv1/conv/W'].shape[0]
        if n_fg_class is None:
            raise ValueError(f'{self.model_name}: n_fg_class must be given with '
                             f'pretrained_model={path!r} (a ResNet classifier: the weights '
                             f'of the extractor only)')
        if width != base_channels:
            raise ValueError(f'{self.model_name}: pretrained_model={path!r} is a ResNet of '
                             f'base_channels {width}, but got base_channels={base_channels!r}')
        return path

    def _add_heads(self, n_class: int, channels: int) -> None:
        """Adds the heads a subclass puts on the pyramid besides the box head, before the
        weights load (Mask R-CNN's mask head); none here.

        Args:
            n_class (int): the number of classes, background included.
            channels (int): the channels of the levels.
        """

    def _load_imagenet_resnet(self, spec: WeightSpec) -> None:
        """Loads ResNet's ImageNet weights into the extractor's base as ChainerCV's
        ``_copyparams`` copies them: ``conv1`` to ``res5`` with their batch normalizations'
        statistics; the pyramid, the RPN and the head keep their initial values.

        Args:
            spec (vision.weights.WeightSpec): the manifest's row, whose file is a ResNet of
                arch ``'he'`` saved by ``save_npz`` (its ``fc6`` is not read).
        """
        path = spec.local_path()
        with reporting_corruption(spec, path, 'npz'):
            load_npz(path, self.extractor.base)
        self.weight_spec = spec


@register_model('faster_rcnn_fpn_resnet50')
class FasterRCNNFPNResNet50(FasterRCNNFPNResNet):
    """Faster R-CNN with FPN on ResNet-50; see :class:`FasterRCNNFPNResNet` for the
    arguments."""

    _base = ResNet50


@register_model('faster_rcnn_fpn_resnet101')
class FasterRCNNFPNResNet101(FasterRCNNFPNResNet):
    """Faster R-CNN with FPN on ResNet-101; see :class:`FasterRCNNFPNResNet` for the
    arguments."""

    _base = ResNet101
