"""Instance segmentation models: each family in its subpackage (``mask_rcnn``)."""

from vision.models.instance.mask_rcnn import MaskRCNNFPNResNet50, MaskRCNNFPNResNet101

__all__ = ['MaskRCNNFPNResNet50', 'MaskRCNNFPNResNet101']
