"""Semantic segmentation models: each family in its subpackage (``segnet``, ``pspnet``), and
:class:`PixelwiseSoftmaxClassifier`, which trains any of them."""

from vision.models.segmentation.pixelwise_softmax_classifier import PixelwiseSoftmaxClassifier
from vision.models.segmentation.pspnet import PSPNetResNet50, PSPNetResNet101
from vision.models.segmentation.segnet import SegNetBasic

__all__ = ['PSPNetResNet101', 'PSPNetResNet50', 'PixelwiseSoftmaxClassifier', 'SegNetBasic']
