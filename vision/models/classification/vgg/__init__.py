"""VGG-16 and torchvision's converter."""

from vision.models.classification.vgg import torchvision_vgg16  # noqa: F401  (converter)
from vision.models.classification.vgg.vgg16 import VGG16

__all__ = ['VGG16']
