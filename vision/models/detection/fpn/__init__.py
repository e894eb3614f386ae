"""Faster R-CNN with a Feature Pyramid Network (ChainerCV's ``fpn``): the model
(:class:`FasterRCNN`), its parts (:class:`FPN`, :class:`RPN`, :class:`BboxHead` on
:class:`PyramidRoIHead`, which Mask R-CNN's mask head shares), the ResNet variants
(:class:`FasterRCNNFPNResNet50`, :class:`FasterRCNNFPNResNet101`), the losses
(:func:`rpn_loss`, :func:`bbox_head_loss_pre`, :func:`bbox_head_loss_post`) and the training
chain (:class:`FasterRCNNFPNTrainChain`)."""

from vision.models.detection.fpn import torchvision_fpn  # noqa: F401  (converter)
from vision.models.detection.fpn.bbox_head import BboxHead
from vision.models.detection.fpn.bbox_head_loss import bbox_head_loss_post, bbox_head_loss_pre
from vision.models.detection.fpn.faster_rcnn import FasterRCNN, pad_images
from vision.models.detection.fpn.faster_rcnn_fpn_resnet import (
    FasterRCNNFPNResNet,
    FasterRCNNFPNResNet50,
    FasterRCNNFPNResNet101,
)
from vision.models.detection.fpn.faster_rcnn_fpn_train_chain import FasterRCNNFPNTrainChain
from vision.models.detection.fpn.fpn import FPN
from vision.models.detection.fpn.level_assignment import assign_levels, split_by_level
from vision.models.detection.fpn.pyramid_roi_head import PyramidRoIHead
from vision.models.detection.fpn.rpn import RPN
from vision.models.detection.fpn.rpn_loss import rpn_loss

__all__ = [
    'FPN', 'RPN', 'BboxHead', 'FasterRCNN', 'FasterRCNNFPNResNet', 'FasterRCNNFPNResNet50',
    'FasterRCNNFPNResNet101', 'FasterRCNNFPNTrainChain', 'PyramidRoIHead', 'assign_levels',
    'bbox_head_loss_post', 'bbox_head_loss_pre', 'pad_images', 'rpn_loss', 'split_by_level',
]
