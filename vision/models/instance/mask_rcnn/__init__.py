"""Mask R-CNN on the FPN detectors' parts (ChainerCV's ``fpn`` Mask R-CNN): the mask head
(:class:`MaskHead`) and the coding of masks in boxes (:func:`segm_to_mask`,
:func:`mask_to_segm`)."""

from vision.models.instance.mask_rcnn.mask_coding import mask_to_segm, segm_to_mask
from vision.models.instance.mask_rcnn.mask_head import MaskHead

__all__ = ['MaskHead', 'mask_to_segm', 'segm_to_mask']
