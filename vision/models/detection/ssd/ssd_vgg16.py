"""SSD300 and SSD512: SSD on the VGG-16 extractors, with ChainerCV's numbers and weights."""

from __future__ import annotations

import os

import numpy

from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.detection.ssd.multibox import Multibox
from vision.models.detection.ssd.ssd import SSD
from vision.models.detection.ssd.vgg16 import VGG16Extractor300, VGG16Extractor512
from vision.weights import file_kind, get_converter, get_weight

# RGB: ImageNet's channel means, as the original Caffe model subtracts them.
_IMAGENET_MEAN = numpy.array((123, 117, 104), numpy.float32)[:, None, None]
# The bias of the first score convolution: its length is the classes (background included)
# times the default boxes of a pixel of the first feature map.
_CONF_BIAS = 'multibox/conf/0/b'
# The bias of the first convolution: its length is the width of the extractor.
_CONV1_1_BIAS = 'extractor/conv1_1/b'
# The width of the paper's network (VGG16's base_channels).
_BASE_CHANNELS = 64


class _SSDVGG16(SSD):
    """SSD on a VGG-16 extractor; the variants fill in the numbers."""

    _extractor: type
    _aspect_ratios: tuple[tuple[int, ...], ...]
    _steps: tuple[float, ...]
    _sizes: tuple[float, ...]
    weight_spec = None

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None,
                 base_channels: int | None = None, **options):
        n_fg_class, base_channels, path, prefix = self._resolve(n_fg_class, pretrained_model,
                                                                base_channels)
        options = {'sizes': self._sizes, 'mean': _IMAGENET_MEAN, **self._weight_options(),
                   **options}
        extractor = self._extractor(base_channels)
        super().__init__(
            extractor=extractor,
            multibox=Multibox(n_fg_class + 1, self._aspect_ratios,
                              in_channels=extractor.channels),
            steps=self._steps, **options)
        if path is not None:
            # The weights of an extractor ('imagenet') leave the rest as initialised, as
            # ChainerCV's load_npz(..., strict=False) does.
            extractor_only = self.weight_spec is not None and self.weight_spec.n_class is None
            load_npz(path, self, path=prefix, strict=not extractor_only)

    def _resolve(self, n_fg_class, pretrained_model, base_channels
                 ) -> tuple[int, int, str | None, str]:
        """``n_fg_class`` and ``base_channels`` checked against the weights, the NPZ file to
        load (None) and the path of the model inside it."""
        name = type(self).__name__
        if n_fg_class is not None and (not isinstance(n_fg_class, (int, numpy.integer))
                                       or isinstance(n_fg_class, bool) or n_fg_class < 1):
            raise ValueError(f'{name}: n_fg_class must be a positive int, but got '
                             f'{n_fg_class!r}')
        if not pretrained_model:
            if n_fg_class is None:
                raise ValueError(f'{name}: n_fg_class must be given when pretrained_model is '
                                 'None')
            return int(n_fg_class), base_channels or _BASE_CHANNELS, None, ''
        path = os.fspath(pretrained_model)
        spec, prefix = None, ''
        if os.path.isfile(path):
            prefix, fixed, fixed_base = self._npz_head(path)
            source = f'the file {path}'
        else:
            spec = get_weight(self.model_name, path)
            fixed, source = spec.n_class, f'the weights {path!r} ({spec.describe()})'
            fixed_base = spec.model_kwargs.get('base_channels', _BASE_CHANNELS)
        if fixed is None:
            if n_fg_class is None:
                raise ValueError(f'{name}: n_fg_class must be given with pretrained_model='
                                 f'{path!r} (the weights of the extractor only)')
            fixed = int(n_fg_class)
        elif n_fg_class is not None and fixed != n_fg_class:
            raise ValueError(f'{name}: n_fg_class={n_fg_class} contradicts {source}, which '
                             f'detect {fixed} foreground classes: leave n_fg_class out or '
                             f'pass n_fg_class={fixed}')
        if base_channels is not None and fixed_base != base_channels:
            raise ValueError(f'{name}: base_channels={base_channels} contradicts {source}, '
                             f'whose conv1_1 has {fixed_base} channels: leave base_channels '
                             f'out or pass base_channels={fixed_base}')
        if spec is not None:
            self.weight_spec = spec
            path = spec.local_path()
        return fixed, fixed_base, path, prefix

    def _weight_options(self) -> dict:
        """The options that the weights loaded by name fix unless given: their converter's
        constructor arguments (e.g. torchvision's default boxes) and their mean."""
        spec = self.weight_spec
        if spec is None:
            return {}
        return {**get_converter(spec.converter).model_kwargs,
                'mean': spec.preprocessing.model_mean()}

    def _npz_head(self, path: str) -> tuple[str, int, int]:
        """The path of the model in an NPZ file (``''``, or e.g. ``'model/'`` in a train
        chain's file), the foreground classes of its head and the channels of its
        ``conv1_1``.

        Raises:
            ValueError: the file is not an NPZ file, or holds no SSD head.
        """
        name = type(self).__name__
        if file_kind(path) != 'npz':
            raise ValueError(f"{name}: pretrained_model {path!r} must be an NPZ file in "
                             "ChainerCV's layout, but it is a PyTorch checkpoint")
        with numpy.load(path) as npz:
            keys = sorted((k for k in npz.files if k == _CONF_BIAS
                           or k.endswith('/' + _CONF_BIAS)), key=len)
            if not keys:
                raise ValueError(f'{name}: the NPZ file {path} holds no SSD head (no key '
                                 f'{_CONF_BIAS!r}, under any path)')
            prefix = keys[0][:-len(_CONF_BIAS)]
            n_class = npz[keys[0]].shape[0] // (2 * (len(self._aspect_ratios[0]) + 1))
            conv1_1 = prefix + _CONV1_1_BIAS
            base_channels = (npz[conv1_1].shape[0] if conv1_1 in npz.files
                             else _BASE_CHANNELS)
        return prefix, n_class - 1, base_channels


@register_model('ssd300')
class SSD300(_SSDVGG16):
    """SSD with 300x300 inputs (Liu et al., 2016), ChainerCV's ``SSD300``: six feature maps
    (:class:`VGG16Extractor300`), 8732 default boxes.

    ``pretrained_model``:

    - ``'voc0712'``: ChainerCV's conversion of the authors' Caffe model trained on PASCAL VOC
      2007 and 2012 trainval (``n_fg_class`` 20 or None), fetched and verified through the
      manifest (``weights_manifest.json``);
    - ``'torchvision-coco'``: torchvision's ``ssd300_vgg16`` trained on COCO
      (``n_fg_class`` 80 or None, :data:`vision.datasets.coco_bbox_label_names`), converted
      (:mod:`~vision.models.detection.ssd.torchvision_ssd300`), with torchvision's default
      boxes, mean, resizing and postprocessing as options; use the ``'evaluate'`` preset
      for torchvision's thresholds;
    - ``'imagenet'``: the SSD authors' VGG-16 trained on ImageNet (fc6 and fc7 as the
      convolutions ``conv6`` and ``conv7``), converted by ChainerCV, in the extractor's
      VGG-16 layers; the rest (``norm4``, the extra layers, the head) as initialised, as
      ChainerCV loads them; ``n_fg_class`` must be given;
    - the path of an NPZ file in ChainerCV's layout, the model at its root or under a path
      (``model/`` in a train chain's snapshot); its head fixes ``n_fg_class``;
    - None: random initialization (``n_fg_class`` must be given).

    Args:
        n_fg_class (int or None): the number of foreground classes.
        pretrained_model (str, path or None): see above.
        base_channels (int or None): the width of the extractor (:class:`VGG16`); the
            weights fix it (an NPZ file by its ``conv1_1``), else 64, the paper's.
        options: ``sizes`` (of the default boxes, ChainerCV's by default), ``mean`` (RGB,
            ``(123, 117, 104)`` by default) and the keyword options of :class:`SSD`
            (``clip_default_bbox``, ``bbox_xform_clip``, ``clip_bbox``, ``topk_candidates``,
            ``detections_per_img``, ``antialias``); weights loaded by name set those they
            need (their mean, and torchvision's settings for ``'torchvision-coco'``) unless
            given.

    Attributes:
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded
            by name.

    Raises:
        ValueError: ``n_fg_class`` is missing, or it or ``base_channels`` contradicts the
            weights (the message names both).
    """

    _extractor = VGG16Extractor300
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 100, 300)
    _sizes = (30, 60, 111, 162, 213, 264, 315)


@register_model('ssd512')
class SSD512(_SSDVGG16):
    """SSD with 512x512 inputs (Liu et al., 2016), ChainerCV's ``SSD512``: seven feature
    maps (:class:`VGG16Extractor512`), 24564 default boxes. ``pretrained_model``, the
    arguments, attributes and errors are those of :class:`SSD300`.
    """

    _extractor = VGG16Extractor512
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 128, 256, 512)
    _sizes = (35.84, 76.8, 153.6, 230.4, 307.2, 384.0, 460.8, 537.6)
