"""Instance segmentation models: each family in its subpackage (``mask_rcnn``, ``fcis``)."""

from vision.models.instance.fcis import FCISResNet101
from vision.models.instance.mask_rcnn import MaskRCNNFPNResNet50, MaskRCNNFPNResNet101

__all__ = ['FCISResNet101', 'MaskRCNNFPNResNet50', 'MaskRCNNFPNResNet101']
