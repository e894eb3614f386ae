"""ResNet (He et al., 2016) with ChainerCV's names, and the base its SE variants share."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import initializers
from framework.links import Conv2DBNActiv, Linear, PickableSequentialChain
from vision.models._registry import register_model
from vision.models.classification._layers import MaxPooling2D, global_average_pooling_2d
from vision.models.classification.feature_predictor import ClassifierPredictMixin
from vision.models.classification.resnet.resblock import ResBlock
from vision.weights import prepare_pretrained_model

# RGB order: the channel means of the mean image of https://github.com/KaimingHe/
# deep-residual-networks, the default of the ResNet family.
IMAGENET_MEAN = numpy.array([123.15163084, 115.90288257, 103.0626238],
                            numpy.float32)[:, None, None]

# ChainerCV's pool1: a 3x3 window with stride 2, no padding, covering the whole input.
POOL1_KWARGS = {'ksize': 3, 'stride': 2}


class ResNetBase(ClassifierPredictMixin, PickableSequentialChain):
    """What ResNet, SE-ResNet and SE-ResNeXt share: the layers

    ``conv1`` (7x7 convolution, batch normalization, ReLU), ``pool1`` (max pooling), ``res2``
    to ``res5`` (:class:`~vision.models.classification.resnet.ResBlock`), ``pool5`` (global
    average pooling), ``fc6`` (the classifier) and ``prob`` (softmax), in that order;
    :attr:`pick` chooses which of them the call returns (the probabilities by default).

    Subclasses fill in the numbers: ``_blocks`` (bottlenecks per stage for each depth) and
    :meth:`_layout`; architecture arguments of their own come as keyword arguments, with their
    defaults in ``_arch_defaults``.

    Small networks, for small images or CPU training, come from the same family: the depths 14
    (one bottleneck per stage; registered as ``resnet14``) and 26 (two), as in timm's
    ``resnet14t`` and ``resnet26``, and the keyword argument ``base_channels``, the channels of
    ``conv1`` (64 in the published networks), which every other layer's channels follow (a
    stage has ``base_channels << i`` channels inside its bottlenecks, four times that out of
    them): ``ResNet14(n_class=4, base_channels=16)`` is a ResNet-14 of a quarter the width,
    whose convolutions after ``conv1`` have 1/16 of the parameters.

    The keyword argument ``replace_stride_with_dilation`` (torchvision's) makes a dilated
    ResNet, the backbone of dense prediction: three bools for ``res3``, ``res4`` and ``res5``;
    a stage marked True keeps the resolution of the one before and dilates its 3x3
    convolutions instead, by twice the dilation of the stage before (its first bottleneck by
    that one's, as torchvision's ``_make_layer``). ``(False, True, True)`` gives features of
    1/8 of the input's size, as torchvision's DeepLabV3 and FCN take them.

    Attributes:
        mean (numpy.ndarray): ``(3, 1, 1)``, what to subtract from RGB 0-255 images.
        weight_spec (vision.weights.WeightSpec or None): the pretrained weights loaded by name.
        preset_params (dict): ChainerCV's class attribute: the ``n_class`` and ``mean`` of the
            ``'imagenet'`` weights, by weight name.
    """

    preset_params = {'imagenet': {'n_class': 1000, 'mean': IMAGENET_MEAN}}
    _blocks = {14: (1, 1, 1, 1), 26: (2, 2, 2, 2), 50: (3, 4, 6, 3), 101: (3, 4, 23, 3),
               152: (3, 8, 36, 3)}
    _arch_defaults: dict = {}
    _torch_converter: str | None = None
    model_name: str | None = None
    weight_spec = None

    def __init__(self, n_layer: int, n_class: int | None = None, pretrained_model=None,
                 mean=None, initialW=None, fc_kwargs: dict | None = None, *,
                 bn_kwargs: dict | None = None, pool1_kwargs: dict | None = None,
                 base_channels: int | None = None,
                 replace_stride_with_dilation=(False, False, False), **arch_param):
        unknown = sorted(set(arch_param) - set(self._arch_defaults))
        if unknown:
            raise TypeError(f'{type(self).__name__}: unexpected keyword arguments {unknown} '
                            f'(the architecture arguments are {sorted(self._arch_defaults)})')
        if n_layer not in self._blocks:
            raise ValueError(f'{type(self).__name__}: n_layer must be one of '
                             f'{sorted(self._blocks)}, but got {n_layer!r}')
        param, pretrained = prepare_pretrained_model(
            self.model_name, pretrained_model,
            {'n_class': n_class, 'mean': mean, 'bn_kwargs': bn_kwargs,
             'pool1_kwargs': pool1_kwargs, 'base_channels': base_channels, **arch_param},
            {'n_class': 1000, 'mean': IMAGENET_MEAN, 'bn_kwargs': {},
             'pool1_kwargs': POOL1_KWARGS, 'base_channels': 64, **self._arch_defaults},
            torch_converter=self._torch_converter)
        base = param['base_channels']
        if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
            raise ValueError(f'{type(self).__name__}: base_channels must be a positive int, '
                             f'but got {base!r}')
        layout = self._layout(n_layer, param)
        dilation = _dilation(type(self).__name__, replace_stride_with_dilation)
        super().__init__()
        for key in self._arch_defaults:
            setattr(self, key, param[key])
        self.mean = param['mean']
        if initialW is None:
            initialW = initializers.HeNormal(scale=1., fan_option='fan_out')
        fc_kwargs = dict(fc_kwargs or {})
        fc_kwargs.setdefault('initialW', initializers.Normal(scale=0.01))
        if pretrained is not None:
            # Sampling takes time, and the values are overwritten anyway.
            initialW = fc_kwargs['initialW'] = initializers.Zero()
        self._init_layers(self._blocks[n_layer], param, initialW, fc_kwargs, dilation,
                          **layout)
        if pretrained is not None:
            pretrained.load(self)

    def _layout(self, n_layer: int, param: dict) -> dict:
        """The keyword arguments of :meth:`_init_layers` that make the variant:
        ``conv1_nobias``, ``stride_first`` and optionally ``mid_channels``, ``groups``,
        ``add_seblock``."""
        raise NotImplementedError

    def _init_layers(self, n_blocks: tuple[int, ...], param: dict, initialW, fc_kwargs: dict,
                     dilation: tuple[bool, ...], *, conv1_nobias: bool, stride_first: bool,
                     mid_channels=(64, 128, 256, 512), groups: int = 1,
                     add_seblock: bool = False) -> None:
        block_kwargs = {'groups': groups, 'initialW': initialW, 'bn_kwargs': param['bn_kwargs'],
                        'stride_first': stride_first, 'add_seblock': add_seblock}
        base = param['base_channels']
        # Every channel count of the published networks is a multiple of 64.
        width = [c // 64 * base for c in mid_channels]
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(3, base, 7, 2, 3, nobias=conv1_nobias,
                                       initialW=initialW, bn_kwargs=param['bn_kwargs'])
            self.pool1 = MaxPooling2D(**param['pool1_kwargs'])
            in_channels, dilate = base, 1
            for i, (n_block, mid, dilated) in enumerate(zip(n_blocks, width,
                                                            (False,) + dilation)):
                out_channels = (4 * base) << i
                stride, first_dilate = 1 if i == 0 else 2, dilate
                if dilated:
                    stride, dilate = 1, 2 * dilate
                setattr(self, f'res{i + 2}', ResBlock(n_block, in_channels, mid, out_channels,
                                                      stride, dilate, first_dilate=first_dilate,
                                                      **block_kwargs))
                in_channels = out_channels
            self.pool5 = global_average_pooling_2d
            self.fc6 = Linear(in_channels, param['n_class'], **fc_kwargs)
            self.prob = F.softmax


def _dilation(who: str, replace_stride_with_dilation) -> tuple[bool, bool, bool]:
    """``replace_stride_with_dilation`` checked: three bools, for ``res3`` to ``res5``.

    Raises:
        ValueError: it is not a sequence of three bools.
    """
    value = replace_stride_with_dilation
    if isinstance(value, (str, bytes)) or not hasattr(value, '__len__') or len(value) != 3 \
            or not all(isinstance(v, (bool, numpy.bool_)) for v in value):
        raise ValueError(f'{who}: replace_stride_with_dilation must be three bools (for res3, '
                         f'res4 and res5), but got {value!r}')
    return tuple(bool(v) for v in value)


class ResNet(ResNetBase):
    """ResNet (He et al., 2016), ChainerCV's ``ResNet``: pick any of its layers.

    Examples:

        >>> model = ResNet50(pretrained_model='imagenet')
        >>> prob = model(x)                  # x: (B, 3, H, W), img - model.mean
        >>> model.pick = ['res5', 'fc6']
        >>> res5, fc6 = model(x)

    ``pretrained_model`` is a weight of ``weights_manifest.json`` (``vision list`` shows
    them): ``'imagenet'`` (ChainerCV's: trained with ChainerCV's script for arch ``'fb'``,
    converted from Kaiming He's Caffe models for arch ``'he'``), ``'torchvision-imagenet1k-v1'``
    and ``'torchvision-imagenet1k-v2'`` (arch ``'fb'``); or the path of an NPZ file in
    Chainer's layout or of a torchvision checkpoint (``resnet50-0676ba61.pth``).

    ``'shapes'`` (``ResNet14`` with ``base_channels=16``): trained on
    :class:`~vision.datasets.ShapesLabelDataset` by ``scripts/train_imagenet.py``, shipped
    in the repository for offline demonstrations.

    Args:
        n_layer (int): 14, 26, 50, 101 or 152.
        n_class (int): the number of classes (default: the weights', else 1000).
        pretrained_model (str): see above; None for random initialization.
        mean (numpy.ndarray): ``(3, 1, 1)``, the mean subtracted from the images (default: the
            weights', else the mean of Kaiming He's mean image).
        initialW (callable): the initializer of the convolution kernels.
        fc_kwargs (dict): keyword arguments of the ``fc6`` :class:`~framework.links.Linear`.
        arch (str): ``'fb'`` (stride on the 3x3 convolutions, as in fb.resnet.torch and
            torchvision) or ``'he'`` (stride on the first 1x1 convolution, as in the paper).
            None: the arch of the named weights, else ``'fb'``.
        bn_kwargs (dict): keyword arguments of every batch normalization (default: the
            weights'; torchvision's use ``eps=1e-5``).
        pool1_kwargs (dict): keyword arguments of ``pool1``'s
            :func:`~framework.functions.max_pooling_2d` (default ``ksize=3, stride=2``, as in
            ChainerCV; torchvision's weights set ``pad=1, cover_all=False``).
        base_channels (int): the channels of ``conv1``, which the others follow (see
            :class:`ResNetBase`); default: the weights', else 64.
        replace_stride_with_dilation (sequence of bool): for ``res3``, ``res4`` and ``res5``,
            whether the stage dilates in place of striding (see :class:`ResNetBase`); default
            none does.
    """

    _arch_defaults = {'arch': 'fb'}
    _torch_converter = 'torchvision_resnet'

    def __init__(self, n_layer: int, n_class: int | None = None, pretrained_model=None,
                 mean=None, initialW=None, fc_kwargs: dict | None = None,
                 arch: str | None = None, **kwargs):
        super().__init__(n_layer, n_class, pretrained_model, mean, initialW, fc_kwargs,
                         arch=arch, **kwargs)

    def _layout(self, n_layer: int, param: dict) -> dict:
        if param['arch'] not in ('fb', 'he'):
            raise ValueError(f"{type(self).__name__}: arch must be 'fb' or 'he', but got "
                             f"{param['arch']!r}")
        # Kaiming He's ResNet-50 is the only one with a bias in conv1.
        return {'conv1_nobias': param['arch'] == 'fb' or n_layer != 50,
                'stride_first': param['arch'] == 'he'}


@register_model('resnet14')
class ResNet14(ResNet):
    """ResNet-14: one bottleneck per stage; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, arch: str | None = None,
                 **kwargs):
        super().__init__(14, n_class, pretrained_model, mean, initialW, fc_kwargs, arch,
                         **kwargs)


@register_model('resnet50')
class ResNet50(ResNet):
    """ResNet-50; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, arch: str | None = None,
                 **kwargs):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs, arch,
                         **kwargs)


@register_model('resnet101')
class ResNet101(ResNet):
    """ResNet-101; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, arch: str | None = None,
                 **kwargs):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs, arch,
                         **kwargs)


@register_model('resnet152')
class ResNet152(ResNet):
    """ResNet-152; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, arch: str | None = None,
                 **kwargs):
        super().__init__(152, n_class, pretrained_model, mean, initialW, fc_kwargs, arch,
                         **kwargs)
