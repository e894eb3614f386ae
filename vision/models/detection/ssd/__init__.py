"""SSD (Single Shot MultiBox Detector), ChainerCV's ``chainercv.links.model.ssd``: the
detectors :class:`SSD300` and :class:`SSD512`, and their parts."""

from vision.models.detection.ssd import torchvision_ssd300  # noqa: F401  (converter)
from vision.models.detection.ssd.gradient_scaling import GradientScaling
from vision.models.detection.ssd.multibox import Multibox
from vision.models.detection.ssd.multibox_coder import MultiboxCoder
from vision.models.detection.ssd.multibox_loss import multibox_loss
from vision.models.detection.ssd.normalize import Normalize
from vision.models.detection.ssd.ssd import SSD
from vision.models.detection.ssd.ssd_vgg16 import SSD300, SSD512
from vision.models.detection.ssd.vgg16 import VGG16, VGG16Extractor300, VGG16Extractor512

__all__ = [
    'GradientScaling', 'Multibox', 'MultiboxCoder', 'Normalize', 'SSD', 'SSD300', 'SSD512',
    'VGG16', 'VGG16Extractor300', 'VGG16Extractor512', 'multibox_loss',
]
