"""The model zoo: models by name (:func:`get_model`, :func:`list_models`), each family in its
subpackage (``classification``, ``detection``, ``segmentation``, ``instance``), with
pretrained weights from ``weights_manifest.json`` (:mod:`vision.weights`)."""

from vision.models._registry import get_model, list_models, register_model
from vision.models.classification import (
    VGG16,
    FeaturePredictor,
    MobileNetV2,
    ResNet14,
    ResNet50,
    ResNet101,
    ResNet152,
    SEResNet50,
    SEResNet101,
    SEResNet152,
    SEResNeXt50,
    SEResNeXt101,
)
from vision.models.detection import (
    MTCNN,
    SSD300,
    SSD512,
    FasterRCNNFPNResNet50,
    FasterRCNNFPNResNet101,
    FasterRCNNVGG16,
    LightHeadRCNNResNet101,
    YOLOv2,
    YOLOv2Tiny,
    YOLOv3,
)
from vision.models.instance import FCISResNet101, MaskRCNNFPNResNet50, MaskRCNNFPNResNet101
from vision.models.segmentation import (
    DeepLabV3plusXception65,
    DeepLabV3ResNet50,
    FCNResNet50,
    PixelwiseSoftmaxClassifier,
    PSPNetResNet50,
    PSPNetResNet101,
    SegNetBasic,
)

__all__ = [
    'DeepLabV3ResNet50', 'DeepLabV3plusXception65', 'FCISResNet101', 'FCNResNet50',
    'FasterRCNNFPNResNet50',
    'FasterRCNNFPNResNet101', 'FasterRCNNVGG16',
    'FeaturePredictor', 'LightHeadRCNNResNet101', 'MTCNN', 'MaskRCNNFPNResNet50',
    'MaskRCNNFPNResNet101', 'MobileNetV2',
    'PSPNetResNet101', 'PSPNetResNet50',
    'PixelwiseSoftmaxClassifier', 'ResNet101',
    'ResNet14', 'ResNet152', 'ResNet50',
    'SEResNeXt101', 'SEResNeXt50', 'SEResNet101', 'SEResNet152', 'SEResNet50', 'SSD300', 'SSD512',
    'SegNetBasic',
    'VGG16', 'YOLOv2', 'YOLOv2Tiny', 'YOLOv3', 'get_model', 'list_models', 'register_model',
]
