"""torchvision's semantic segmentation models on ResNet-50, with its weights converted:
:class:`DeepLabV3ResNet50`, :class:`FCNResNet50`, what they share
(:class:`SimpleSegmentationModel`), their heads and the converters of torchvision's
checkpoints."""

from vision.models.segmentation.torchvision_segmentation import (  # noqa: F401  (converters)
    torchvision_converters,
)
from vision.models.segmentation.torchvision_segmentation.aspp import ASPP
from vision.models.segmentation.torchvision_segmentation.deeplabv3_head import DeepLabV3Head
from vision.models.segmentation.torchvision_segmentation.deeplabv3_resnet50 import (
    DeepLabV3ResNet50,
)
from vision.models.segmentation.torchvision_segmentation.fcn_head import FCNHead
from vision.models.segmentation.torchvision_segmentation.fcn_resnet50 import FCNResNet50
from vision.models.segmentation.torchvision_segmentation.simple_segmentation_model import (
    SimpleSegmentationModel,
)

__all__ = ['ASPP', 'DeepLabV3Head', 'DeepLabV3ResNet50', 'FCNHead', 'FCNResNet50',
           'SimpleSegmentationModel']
