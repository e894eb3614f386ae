"""ResNet: the residual blocks, the shared base, the variants and torchvision's converter."""

from vision.models.classification.resnet import torchvision_resnet  # noqa: F401  (converter)
from vision.models.classification.resnet.resblock import Bottleneck, ResBlock
from vision.models.classification.resnet.resnet import (
    ResNet,
    ResNet14,
    ResNet50,
    ResNet101,
    ResNet152,
    ResNetBase,
)

__all__ = ['Bottleneck', 'ResBlock', 'ResNet', 'ResNet101', 'ResNet14', 'ResNet152',
           'ResNet50', 'ResNetBase']
