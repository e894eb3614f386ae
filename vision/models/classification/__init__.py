"""Image classifiers with ChainerCV's names and arguments, and :class:`FeaturePredictor`
(``predict(imgs)`` -> one probability vector per image), which the classifiers' own ``predict``
(:class:`ClassifierPredictMixin`) applies with their weights' preprocessing."""

from vision.models.classification.feature_predictor import (
    ClassifierPredictMixin,
    FeaturePredictor,
)
from vision.models.classification.mobilenet import (
    ExpandedConv2D,
    MobileNetV2,
    TFConv2DBNActiv,
    TFConvolution2D,
)
from vision.models.classification.resnet import (
    Bottleneck,
    ResBlock,
    ResNet,
    ResNet14,
    ResNet50,
    ResNet101,
    ResNet152,
    ResNetBase,
)
from vision.models.classification.senet import (
    SEResNet,
    SEResNet50,
    SEResNet101,
    SEResNet152,
    SEResNeXt,
    SEResNeXt50,
    SEResNeXt101,
)
from vision.models.classification.vgg import VGG16

__all__ = [
    'Bottleneck', 'ClassifierPredictMixin', 'ExpandedConv2D', 'FeaturePredictor',
    'MobileNetV2', 'ResBlock', 'ResNet',
    'ResNet101', 'ResNet14', 'ResNet152', 'ResNet50', 'ResNetBase', 'SEResNeXt',
    'SEResNeXt101', 'SEResNeXt50', 'SEResNet', 'SEResNet101', 'SEResNet152', 'SEResNet50',
    'TFConv2DBNActiv', 'TFConvolution2D', 'VGG16',
]
