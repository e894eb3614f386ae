"""SE-ResNet and SE-ResNeXt."""

from vision.models.classification.senet.se_resnet import (
    SEResNet,
    SEResNet50,
    SEResNet101,
    SEResNet152,
)
from vision.models.classification.senet.se_resnext import SEResNeXt, SEResNeXt50, SEResNeXt101

__all__ = ['SEResNeXt', 'SEResNeXt101', 'SEResNeXt50', 'SEResNet', 'SEResNet101',
           'SEResNet152', 'SEResNet50']
