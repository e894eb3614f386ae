"""SE-ResNet (Hu et al., 2018) with ChainerCV's names: a ResNet whose residual branches end
with a squeeze-and-excitation block."""

from __future__ import annotations

from vision.models._registry import register_model
from vision.models.classification.resnet.resnet import ResNetBase


class SEResNet(ResNetBase):
    """SE-ResNet, ChainerCV's ``SEResNet``: arch ``'he'`` ResNet (stride on the first 1x1
    convolution) with an ``se`` block in every bottleneck. The layers and their picking are
    those of :class:`~vision.models.classification.ResNet`.

    ``pretrained_model``: ``'imagenet'`` (converted by ChainerCV from the Caffe models of
    https://github.com/hujie-frank/SENet), or the path of an NPZ file.

    Args:
        n_layer (int): 14, 26, 50, 101 or 152.
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

    def _layout(self, n_layer: int, param: dict) -> dict:
        return {'conv1_nobias': True, 'stride_first': True, 'add_seblock': True}


@register_model('se_resnet50')
class SEResNet50(SEResNet):
    """SE-ResNet-50; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, **kwargs):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs, **kwargs)


@register_model('se_resnet101')
class SEResNet101(SEResNet):
    """SE-ResNet-101; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, **kwargs):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs, **kwargs)


@register_model('se_resnet152')
class SEResNet152(SEResNet):
    """SE-ResNet-152; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class: int | None = None, pretrained_model=None, mean=None,
                 initialW=None, fc_kwargs: dict | None = None, **kwargs):
        super().__init__(152, n_class, pretrained_model, mean, initialW, fc_kwargs, **kwargs)
