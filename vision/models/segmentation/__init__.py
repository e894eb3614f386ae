"""Semantic segmentation models: each family in its subpackage (``segnet``), and
:class:`PixelwiseSoftmaxClassifier`, which trains any of them."""

from vision.models.segmentation.pixelwise_softmax_classifier import PixelwiseSoftmaxClassifier
from vision.models.segmentation.segnet import SegNetBasic

__all__ = ['PixelwiseSoftmaxClassifier', 'SegNetBasic']
