"""MobileNetV2 (Sandler et al., 2018) with ChainerCV's names."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework.links import PickableSequentialChain
from vision.models._registry import register_model
from vision.models.classification.feature_predictor import ClassifierPredictMixin
from vision.models.classification.mobilenet.expanded_conv_2d import ExpandedConv2D, relu6
from vision.models.classification.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv
from vision.models.classification.mobilenet.tf_convolution_2d import TFConvolution2D
from vision.models.classification.mobilenet.util import expand_input_by_factor, make_divisible
from vision.weights import prepare_pretrained_model

# RGB order: the default mean of a model without pretrained weights (ChainerCV's).
IMAGENET_MEAN = numpy.array([123.68, 116.779, 103.939], numpy.float32)[:, None, None]

# What tells the layouts apart: TensorFlow's 'SAME' padding (the odd pixel after) and slim's
# batch normalization, or torchvision's symmetric padding and PyTorch's batch normalization.
_ARCHS = {
    'tf': {'same_padding': True, 'bn_kwargs': {'decay': 0.999, 'eps': 0.001}},
    'torchvision': {'same_padding': False, 'bn_kwargs': {'decay': 0.9, 'eps': 1e-5}},
}

# The output channels of the inverted residual blocks expanded_conv_1 ... expanded_conv_16,
# and those of them that halve the resolution.
_OUT_CHANNELS = (24,) * 2 + (32,) * 3 + (64,) * 4 + (96,) * 3 + (160,) * 3 + (320,)
_STRIDE_2 = (1, 3, 6, 13)


def _multiplied(channels: int, depth_multiplier: float) -> int:
    return make_divisible(channels * depth_multiplier, 8, 8)


def _global_average_pooling(x):
    return F.mean(x, axis=(2, 3), keepdims=True)


def _squeeze(x):
    return F.squeeze(x, axis=(2, 3))


@register_model('mobilenet_v2')
class MobileNetV2(ClassifierPredictMixin, PickableSequentialChain):
    """MobileNetV2, ChainerCV's ``MobileNetV2``: pick any of its layers.

    The layers, in order: ``conv`` (3x3 convolution with stride 2), ``expanded_conv`` and
    ``expanded_conv_1`` to ``expanded_conv_16`` (:class:`ExpandedConv2D`), ``conv1`` (1x1
    convolution), ``global_average_pool``, ``logits_conv`` (1x1 convolution, the classifier),
    ``squeeze`` and ``softmax``. The channels of every layer are multiplied by
    ``depth_multiplier`` (and rounded to multiples of 8).

    ``pretrained_model``: ``'imagenet'`` (ChainerCV's conversion of TensorFlow's slim models,
    arch ``'tf'``, for ``depth_multiplier`` 1.0 and 1.4; 1001 classes, the first one the
    background), ``'torchvision-imagenet1k-v1'`` and ``'torchvision-imagenet1k-v2'`` (arch
    ``'torchvision'``), or the path of an NPZ file in Chainer's layout or of a torchvision
    checkpoint (``mobilenet_v2-b0353104.pth``).

    Args:
        n_class (int): the number of classes (default: the weights', else 1000).
        pretrained_model (str): see above; None for random initialization.
        mean (numpy.ndarray): ``(3, 1, 1)``, the mean subtracted from the images.
        initialW (callable): the initializer of the kernels.
        initial_bias (callable): the initializer of the classifier's bias.
        arch (str): ``'tf'`` (TensorFlow's layout: ``'SAME'`` padding, slim's batch
            normalization) or ``'torchvision'`` (symmetric padding, PyTorch's batch
            normalization). None: the arch of the named weights, else ``'tf'``.
        depth_multiplier (float): the width multiplier, greater than 0.
        bn_kwargs (dict): keyword arguments of every batch normalization (default: the
            arch's).
        thousand_categories_mode (bool): drop the first (background) class of weights with
            1001 classes, leaving ImageNet's 1000.

    Attributes:
        mean (numpy.ndarray): ``(3, 1, 1)``, what to subtract from RGB 0-255 images.
        n_class (int): the number of classes of the output.
        weight_spec (vision.weights.WeightSpec or None): the pretrained weights loaded by name.
    """

    weight_spec = None

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, initial_bias=None, arch: str | None = None,
                 depth_multiplier: float = 1., bn_kwargs: dict | None = None,
                 thousand_categories_mode: bool = False):
        if not depth_multiplier > 0:
            raise ValueError(f'MobileNetV2: depth_multiplier must be greater than 0, but got '
                             f'{depth_multiplier!r}')
        param, pretrained = prepare_pretrained_model(
            self.model_name, pretrained_model,
            {'n_class': n_class, 'mean': mean, 'arch': arch,
             'depth_multiplier': depth_multiplier, 'bn_kwargs': bn_kwargs},
            {'n_class': 1000, 'mean': IMAGENET_MEAN, 'arch': 'tf'},
            torch_converter='torchvision_mobilenet_v2')
        if param['arch'] not in _ARCHS:
            raise ValueError(f'MobileNetV2: arch must be one of {sorted(_ARCHS)}, but got '
                             f'{param["arch"]!r}')
        super().__init__()
        self.arch = param['arch']
        self.mean = param['mean']
        self.n_class = param['n_class']
        layout = _ARCHS[self.arch]
        bn_kwargs = layout['bn_kwargs'] if param['bn_kwargs'] is None else param['bn_kwargs']

        def pad(ksize):
            return 'SAME' if layout['same_padding'] else ksize // 2

        kwargs = {'initialW': initialW, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            in_channels = _multiplied(32, depth_multiplier)
            self.conv = TFConv2DBNActiv(3, in_channels, 3, 2, pad(3), activ=relu6, **kwargs)
            out_channels = _multiplied(16, depth_multiplier)
            self.expanded_conv = ExpandedConv2D(
                in_channels, out_channels, expand_input_by_factor(1, divisible_by=1),
                pad(1), depthwise_pad=pad(3), project_pad=pad(1), **kwargs)
            in_channels = out_channels
            for i, channels in enumerate(_OUT_CHANNELS, 1):
                out_channels = _multiplied(channels, depth_multiplier)
                setattr(self, f'expanded_conv_{i}', ExpandedConv2D(
                    in_channels, out_channels, expand_pad=pad(1),
                    depthwise_stride=2 if i in _STRIDE_2 else 1, depthwise_pad=pad(3),
                    project_pad=pad(1), **kwargs))
                in_channels = out_channels
            conv1_channels = (1280 if depth_multiplier < 1
                              else _multiplied(1280, depth_multiplier))
            self.conv1 = TFConv2DBNActiv(in_channels, conv1_channels, 1, pad=pad(1),
                                         activ=relu6, **kwargs)
            self.global_average_pool = _global_average_pooling
            self.logits_conv = TFConvolution2D(conv1_channels, self.n_class, 1, pad=pad(1),
                                               initialW=initialW, initial_bias=initial_bias)
            self.squeeze = _squeeze
            self.softmax = F.softmax
        if pretrained is not None:
            pretrained.load(self)
        if thousand_categories_mode and self.n_class > 1000:
            conv = self.logits_conv.conv
            conv.W.array = conv.W.array[1:].copy()
            conv.b.array = conv.b.array[1:].copy()
            conv.out_channels = self.n_class = self.n_class - 1
