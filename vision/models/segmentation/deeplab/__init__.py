"""DeepLab v3+, ChainerCV's ``chainercv.links.model.deeplab``: :class:`DeepLabV3plusXception65`
and its parts."""

from vision.models.segmentation.deeplab.decoder import Decoder
from vision.models.segmentation.deeplab.deeplab_v3_plus import DeepLabV3plus
from vision.models.segmentation.deeplab.deeplab_v3_plus_xception65 import (
    DeepLabV3plusXception65,
)
from vision.models.segmentation.deeplab.separable_aspp import SeparableASPP
from vision.models.segmentation.deeplab.xception65 import Xception65
from vision.models.segmentation.deeplab.xception_block import XceptionBlock

__all__ = ['Decoder', 'DeepLabV3plus', 'DeepLabV3plusXception65', 'SeparableASPP', 'Xception65',
           'XceptionBlock']
