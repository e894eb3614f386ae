"""DeepLabV3plusXception65: DeepLab v3+ on Xception65, with ChainerCV's weights."""

from __future__ import annotations

import os
from collections.abc import Sequence

from framework import initializers
from vision.models._registry import register_model
from vision.models.segmentation.deeplab.decoder import Decoder
from vision.models.segmentation.deeplab.deeplab_v3_plus import DeepLabV3plus, size_pair
from vision.models.segmentation.deeplab.separable_aspp import SeparableASPP
from vision.models.segmentation.deeplab.xception65 import Xception65
from vision.models.segmentation.pretrained import prepare_segmentation_weights

# The key of the classifier's filter, (n_class, 256, 1, 1): the weights' classes.
_CLASSIFIER = 'decoder/conv_logits/W'
_MIN_INPUT_SIZE = (513, 513)
_PART_KWARGS = ('extractor_kwargs', 'aspp_kwargs', 'decoder_kwargs')


@register_model('deeplab_v3plus_xception65')
class DeepLabV3plusXception65(DeepLabV3plus):
    """DeepLab v3+ on Xception65, ChainerCV's ``DeepLabV3plusXception65``:
    :class:`Xception65`, a :class:`SeparableASPP` of 256 channels (dilations 12, 24, 36) and
    a :class:`Decoder` (48 channels for the low-level features, 256 after them).

    ``pretrained_model``:

    - ``'voc'``: ChainerCV's conversion of the TensorFlow weights of DeepLab's authors
      trained on PASCAL VOC 2012 trainaug (21 classes, background first; ``min_input_size``
      513x513), fetched and verified through the manifest;
    - ``'cityscapes'``: trained on Cityscapes' fine train split (19 classes,
      ``min_input_size`` 1025x2049);
    - ``'ade20k'``: trained on ADE20K's scene parsing train split (150 classes,
      ``min_input_size`` 513x513);
    - the path of an NPZ file in ChainerCV's layout, the model at its root or under a path;
      its ``decoder/conv_logits`` fixes ``n_class``;
    - None: random initialization (``n_class`` must be given).

    The weights by name fix ``min_input_size`` and the parts' batch normalizations (those
    the authors trained with: ``eps`` 1e-3 in the extractor, 1e-5 in the pooling and the
    decoder, ``decay`` 0.9997); ``scales`` and ``flip`` may be set freely, as in ChainerCV.

    Args:
        n_class (int or None): the number of classes.
        pretrained_model (str, path or None): see above.
        min_input_size (int, pair of int or None): ``(H, W)``, the least size of the
            network's input (an int: a square); the weights', else 513x513.
        scales (sequence of float): the scales of the multi-scale inference.
        flip (bool): average with the left-right flips.
        extractor_kwargs (dict or None): keyword arguments of :class:`Xception65`
            (``bn_kwargs``); the weights', else none.
        aspp_kwargs (dict or None): keyword arguments of :class:`SeparableASPP`; the
            weights', else none.
        decoder_kwargs (dict or None): keyword arguments of :class:`Decoder`; the weights',
            else none.
        initialW (callable or None): the initializer of the convolutions' filters, beyond
            ChainerCV (default: zero when weights are loaded, the links' own else).

    Attributes:
        min_input_size, scales, flip: see :class:`DeepLabV3plus`.
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded by
            name.

    Raises:
        ValueError: ``n_class`` is missing; it, ``min_input_size`` or a part's keyword
            arguments contradict the weights (the message names both); ``min_input_size`` or
            ``scales`` is malformed.
    """

    def __init__(self, n_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, min_input_size=None,
                 scales: Sequence[float] = (1.0,), flip: bool = False,
                 extractor_kwargs: dict | None = None, aspp_kwargs: dict | None = None,
                 decoder_kwargs: dict | None = None, initialW=None):
        name = self.model_name
        weights = prepare_segmentation_weights(name, n_class, pretrained_model, _CLASSIFIER)
        fixed = weights.model_kwargs
        if 'min_input_size' in fixed:
            fixed['min_input_size'] = size_pair(name, 'min_input_size', fixed['min_input_size'])
        min_input_size = weights.argument(
            name, 'min_input_size',
            None if min_input_size is None else size_pair(name, 'min_input_size',
                                                          min_input_size),
            fixed.get('min_input_size')) or _MIN_INPUT_SIZE
        given = dict(zip(_PART_KWARGS, (extractor_kwargs, aspp_kwargs, decoder_kwargs)))
        part_kwargs = {key: weights.argument(name, key, given[key], fixed.get(key)) or {}
                       for key in _PART_KWARGS}
        if initialW is None and weights.pretrained is not None:
            initialW = initializers.Zero()  # sampling takes time; the weights overwrite it
        super().__init__(
            Xception65(initialW=initialW, **part_kwargs['extractor_kwargs']),
            SeparableASPP(2048, 256, initialW=initialW, **part_kwargs['aspp_kwargs']),
            Decoder(256, weights.n_class, 48, 256, initialW=initialW,
                    **part_kwargs['decoder_kwargs']),
            min_input_size, scales, flip)
        if weights.pretrained is not None:
            weights.pretrained.load(self)

    @property
    def n_class(self) -> int:
        """The number of classes."""
        return self.decoder.conv_logits.out_channels
