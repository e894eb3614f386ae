"""Mask R-CNN on the FPN detectors' parts (ChainerCV's ``fpn`` Mask R-CNN): the models
(:class:`MaskRCNNFPNResNet50`, :class:`MaskRCNNFPNResNet101` on :class:`MaskRCNNFPNResNet`),
the mask head (:class:`MaskHead`) and the coding of masks in boxes (:func:`segm_to_mask`,
:func:`mask_to_segm`)."""

from vision.models.instance.mask_rcnn.mask_coding import mask_to_segm, segm_to_mask
from vision.models.instance.mask_rcnn.mask_head import MaskHead
from vision.models.instance.mask_rcnn.mask_rcnn_fpn_resnet import (
    MaskRCNNFPNResNet,
    MaskRCNNFPNResNet50,
    MaskRCNNFPNResNet101,
)

__all__ = ['MaskHead', 'MaskRCNNFPNResNet', 'MaskRCNNFPNResNet50', 'MaskRCNNFPNResNet101',
           'mask_to_segm', 'segm_to_mask']
