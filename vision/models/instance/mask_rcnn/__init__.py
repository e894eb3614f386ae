"""Mask R-CNN on the FPN detectors' parts (ChainerCV's ``fpn`` Mask R-CNN): the models
(:class:`MaskRCNNFPNResNet50`, :class:`MaskRCNNFPNResNet101` on :class:`MaskRCNNFPNResNet`),
the mask head (:class:`MaskHead`), the coding of masks in boxes (:func:`segm_to_mask`,
:func:`mask_to_segm`), the mask head's loss (:func:`mask_head_loss_pre`,
:func:`mask_head_loss_post`) and the training chain (:class:`MaskRCNNFPNTrainChain`)."""

from vision.models.instance.mask_rcnn import torchvision_mask_rcnn  # noqa: F401  (converter)
from vision.models.instance.mask_rcnn.mask_coding import mask_to_segm, segm_to_mask
from vision.models.instance.mask_rcnn.mask_head import MaskHead
from vision.models.instance.mask_rcnn.mask_head_loss import (
    mask_head_loss_post,
    mask_head_loss_pre,
)
from vision.models.instance.mask_rcnn.mask_rcnn_fpn_resnet import (
    MaskRCNNFPNResNet,
    MaskRCNNFPNResNet50,
    MaskRCNNFPNResNet101,
)
from vision.models.instance.mask_rcnn.mask_rcnn_fpn_train_chain import MaskRCNNFPNTrainChain

__all__ = ['MaskHead', 'MaskRCNNFPNResNet', 'MaskRCNNFPNResNet50', 'MaskRCNNFPNResNet101',
           'MaskRCNNFPNTrainChain', 'mask_head_loss_post', 'mask_head_loss_pre', 'mask_to_segm',
           'segm_to_mask']
