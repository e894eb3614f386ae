"""FCNResNet50: torchvision's ``fcn_resnet50``."""

from __future__ import annotations

from vision.models._registry import register_model
from vision.models.segmentation.torchvision_segmentation.fcn_head import FCNHead
from vision.models.segmentation.torchvision_segmentation.simple_segmentation_model import (
    SimpleSegmentationModel,
)


@register_model('fcn_resnet50')
class FCNResNet50(SimpleSegmentationModel):
    """A fully convolutional network (Long et al., "Fully Convolutional Networks for Semantic
    Segmentation", CVPR 2015) on a dilated ResNet-50, torchvision's ``fcn_resnet50``: the head
    is an :class:`FCNHead` on ``res5``. ``pretrained_model`` (``'coco_with_voc_labels'``), the
    arguments, attributes and errors are those of :class:`SimpleSegmentationModel`."""

    _torch_converter = 'torchvision_fcn'
    # the head's classifier takes a quarter of res5's 32 * base_channels
    _head_width = 8

    def _make_head(self, in_channels: int, n_class: int, base_channels: int, initialW,
                   bn_kwargs: dict) -> FCNHead:
        return FCNHead(in_channels, n_class, initialW, bn_kwargs)
