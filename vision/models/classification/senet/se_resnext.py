"""SE-ResNeXt (Xie et al., 2017; Hu et al., 2018) with ChainerCV's names: a ResNet with
grouped 3x3 convolutions (32 groups) and squeeze-and-excitation blocks."""

from __future__ import annotations

from vision.models._registry import register_model
from vision.models.classification.resnet.resnet import ResNetBase


class SEResNeXt(ResNetBase):
    """SE-ResNeXt, ChainerCV's ``SEResNeXt``: arch ``'fb'`` ResNet (stride on the 3x3
    convolutions) with twice the bottleneck width, 32 groups in the 3x3 convolutions and an
    ``se`` block in every bottleneck. The layers and their picking are those of
    :class:`~vision.models.classification.ResNet`.

    ``pretrained_model``: ``'imagenet'`` (converted by ChainerCV from the Caffe models of
    https://github.com/hujie-frank/SENet), or the path of an NPZ file.

    Args:
        n_layer (int): 50 or 101.
        n_class (int): the number of classes (default: the weights', else 1000).
        pretrained_model (str): see above; None for random initialization.
        mean (numpy.ndarray): ``(3, 1, 1)``, the mean subtracted from the images.
        initialW (callable): the initializer of the convolution kernels.
        fc_kwargs (dict): keyword arguments of the ``fc6`` :class:`~framework.links.Linear`.
        bn_kwargs (dict): keyword arguments of every batch normalization.
        pool1_kwargs (dict): keyword arguments of ``pool1``'s max pooling.
        base_channels (int): the channels of ``conv1``, which the others follow (see
            :class:`~vision.models.classification.ResNetBase`; 64 by default).
    """

    _blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3)}

    def _layout(self, n_layer: int, param: dict) -> dict:
        return {'conv1_nobias': True, 'stride_first': False,
                'mid_channels': (128, 256, 512, 1024), 'groups': 32, 'add_seblock': True}


@register_model('se_resnext50')
class SEResNeXt50(SEResNeXt):
    """SE-ResNeXt-50 (32x4d); see :class:`SEResNeXt` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, **kwargs):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs, **kwargs)


@register_model('se_resnext101')
class SEResNeXt101(SEResNeXt):
    """SE-ResNeXt-101 (32x4d); see :class:`SEResNeXt` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, **kwargs):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs, **kwargs)
