"""PSPNetResNet50 and PSPNetResNet101: PSPNet on the dilated ResNets, with ChainerCV's weights."""

from __future__ import annotations

from vision.models._registry import register_model
from vision.models.segmentation.pspnet.pspnet import PSPNet


@register_model('pspnet_resnet50')
class PSPNetResNet50(PSPNet):
    """PSPNet on a dilated ResNet-50, ChainerCV's ``PSPNetResNet50``. ``pretrained_model``, the
    arguments, attributes and errors are those of :class:`PSPNet`."""

    _n_layer = 50


@register_model('pspnet_resnet101')
class PSPNetResNet101(PSPNet):
    """PSPNet on a dilated ResNet-101, ChainerCV's ``PSPNetResNet101``. ``pretrained_model``,
    the arguments, attributes and errors are those of :class:`PSPNet`."""

    _n_layer = 101
