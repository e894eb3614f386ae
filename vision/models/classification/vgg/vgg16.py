"""VGG-16 (Simonyan & Zisserman, 2015) with ChainerCV's names."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import initializers
from framework.links import Conv2DActiv, Linear, PickableSequentialChain
from vision.models._registry import register_model
from vision.models.classification._layers import MaxPooling2D
from vision.models.classification.feature_predictor import ClassifierPredictMixin
from vision.weights import prepare_pretrained_model

# RGB order: the channel means of ImageNet used by the original Caffe model.
IMAGENET_MEAN = numpy.array([123.68, 116.779, 103.939], numpy.float32)[:, None, None]

# (name, output channels) of the 3x3 convolutions of each stage.
_STAGES = ((('conv1_1', 64), ('conv1_2', 64)),
           (('conv2_1', 128), ('conv2_2', 128)),
           (('conv3_1', 256), ('conv3_2', 256), ('conv3_3', 256)),
           (('conv4_1', 512), ('conv4_2', 512), ('conv4_3', 512)),
           (('conv5_1', 512), ('conv5_2', 512), ('conv5_3', 512)))


@register_model('vgg16')
class VGG16(ClassifierPredictMixin, PickableSequentialChain):
    """VGG-16, ChainerCV's ``VGG16``: pick any of its layers.

    The layers, in order: ``conv1_1``, ``conv1_2`` (3x3 convolutions with ReLU), ``pool1``
    (2x2 max pooling), ... ``conv5_3``, ``pool5``, ``fc6``, ``fc6_relu``, ``fc6_dropout``,
    ``fc7``, ``fc7_relu``, ``fc7_dropout``, ``fc8`` and ``prob`` (softmax). ``fc6`` takes the
    flattened ``pool5``, so its input size is set by the first call (``512 * 7 * 7`` for
    224x224 images, the size of the pretrained weights).

    ``pretrained_model``: ``'imagenet'`` (ChainerCV's conversion of the Caffe model of the
    authors), ``'torchvision-imagenet1k-v1'``, or the path of an NPZ file in Chainer's layout
    or of a torchvision checkpoint (``vgg16-397923af.pth``; torchvision's adaptive pooling to
    7x7 before ``fc6`` is the identity for 224x224 images only).

    Args:
        n_class (int): the number of classes (default: the weights', else 1000).
        pretrained_model (str): see above; None for random initialization.
        mean (numpy.ndarray): ``(3, 1, 1)``, the mean subtracted from the images.
        initialW (callable): the initializer of the weights (default: normal with standard
            deviation 0.01, as in the paper).
        initial_bias (callable): the initializer of the biases.
        base_channels (int): the channels of ``conv1_*``, which the other layers follow: a
            layer of ``c`` channels in the paper has ``c * base_channels // 64`` (64, the
            paper's width, by default; pretrained weights are of that width).

    Attributes:
        mean (numpy.ndarray): ``(3, 1, 1)``, what to subtract from RGB 0-255 images.
        weight_spec (vision.weights.WeightSpec or None): the pretrained weights loaded by name.
        preset_params (dict): ChainerCV's class attribute: the ``n_class`` and ``mean`` of the
            ``'imagenet'`` weights, by weight name.
    """

    preset_params = {'imagenet': {'n_class': 1000, 'mean': IMAGENET_MEAN}}
    weight_spec = None

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, initial_bias=None, base_channels: int = 64):
        if (isinstance(base_channels, bool) or not isinstance(base_channels, (int, numpy.integer))
                or base_channels < 1):
            raise ValueError(f'{type(self).__name__}: base_channels must be a positive int, '
                             f'but got {base_channels!r}')
        param, pretrained = prepare_pretrained_model(
            self.model_name, pretrained_model, {'n_class': n_class, 'mean': mean},
            self.preset_params['imagenet'], torch_converter='torchvision_vgg16')
        super().__init__()
        self.mean = param['mean']
        if initialW is None:
            initialW = initializers.Normal(0.01)
        if pretrained is not None:
            initialW = initializers.Zero()
        kwargs = {'initialW': initialW, 'initial_bias': initial_bias}
        in_channels = 3
        with self.init_scope():
            for i, stage in enumerate(_STAGES):
                for name, out_channels in stage:
                    out_channels = out_channels * base_channels // 64
                    setattr(self, name, Conv2DActiv(in_channels, out_channels, 3, 1, 1,
                                                    **kwargs))
                    in_channels = out_channels
                setattr(self, f'pool{i + 1}', MaxPooling2D(2))
            n_hidden = 4096 * base_channels // 64
            self.fc6 = Linear(None, n_hidden, **kwargs)
            self.fc6_relu = F.relu
            self.fc6_dropout = F.dropout
            self.fc7 = Linear(n_hidden, n_hidden, **kwargs)
            self.fc7_relu = F.relu
            self.fc7_dropout = F.dropout
            self.fc8 = Linear(n_hidden, param['n_class'], **kwargs)
            self.prob = F.softmax
        if pretrained is not None:
            pretrained.load(self)
