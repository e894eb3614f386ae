"""Semantic segmentation models: each family in its subpackage (``segnet``, ``pspnet``,
``deeplab``: ChainerCV's DeepLab v3+, ``torchvision_segmentation``: torchvision's DeepLabV3 and
FCN), and
:class:`PixelwiseSoftmaxClassifier`, which trains any of them."""

from vision.models.segmentation.deeplab import DeepLabV3plusXception65
from vision.models.segmentation.pixelwise_softmax_classifier import PixelwiseSoftmaxClassifier
from vision.models.segmentation.pspnet import PSPNetResNet50, PSPNetResNet101
from vision.models.segmentation.segnet import SegNetBasic
from vision.models.segmentation.torchvision_segmentation import DeepLabV3ResNet50, FCNResNet50

__all__ = ['DeepLabV3ResNet50', 'DeepLabV3plusXception65', 'FCNResNet50', 'PSPNetResNet101',
           'PSPNetResNet50', 'PixelwiseSoftmaxClassifier', 'SegNetBasic']
