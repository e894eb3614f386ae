"""MobileNetV2, its blocks and torchvision's converter."""

from vision.models.classification.mobilenet import (  # noqa: F401  (converter)
    torchvision_mobilenet_v2,
)
from vision.models.classification.mobilenet.expanded_conv_2d import ExpandedConv2D
from vision.models.classification.mobilenet.mobilenet_v2 import MobileNetV2
from vision.models.classification.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv
from vision.models.classification.mobilenet.tf_convolution_2d import TFConvolution2D

__all__ = ['ExpandedConv2D', 'MobileNetV2', 'TFConv2DBNActiv', 'TFConvolution2D']
