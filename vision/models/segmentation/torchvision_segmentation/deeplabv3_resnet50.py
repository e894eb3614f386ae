"""DeepLabV3ResNet50: torchvision's ``deeplabv3_resnet50``."""

from __future__ import annotations

from vision.models._registry import register_model
from vision.models.segmentation.torchvision_segmentation.deeplabv3_head import DeepLabV3Head
from vision.models.segmentation.torchvision_segmentation.simple_segmentation_model import (
    SimpleSegmentationModel,
)


@register_model('deeplabv3_resnet50')
class DeepLabV3ResNet50(SimpleSegmentationModel):
    """DeepLabV3 (Chen et al., "Rethinking Atrous Convolution for Semantic Image
    Segmentation", 2017) on a dilated ResNet-50, torchvision's ``deeplabv3_resnet50``: the
    head is a :class:`DeepLabV3Head` (ASPP of rates 12, 24 and 36 with 4 * ``base_channels``
    channels, 256 in torchvision's). ``pretrained_model`` (``'coco_with_voc_labels'``), the
    arguments, attributes and errors are those of :class:`SimpleSegmentationModel`."""

    _torch_converter = 'torchvision_deeplabv3'
    _head_width = 4

    def _make_head(self, in_channels: int, n_class: int, base_channels: int, initialW,
                   bn_kwargs: dict) -> DeepLabV3Head:
        return DeepLabV3Head(in_channels, n_class, self._head_width * base_channels,
                             initialW=initialW, bn_kwargs=bn_kwargs)
