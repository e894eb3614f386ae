"""Light-Head R-CNN (ChainerCV's ``light_head_rcnn``): the model (:class:`LightHeadRCNN`), its
parts (:class:`ResNet101Extractor`, :class:`GlobalContextModule`,
:class:`LightHeadRCNNResNet101Head`), the ResNet-101 variant (:class:`LightHeadRCNNResNet101`)
and the training chain (:class:`LightHeadRCNNTrainChain`, :func:`ohem_loss`); the RPN, the
proposals, the box coding and the training targets are Faster R-CNN's
(:mod:`vision.models.detection.faster_rcnn`)."""

from vision.models.detection.light_head_rcnn.global_context_module import GlobalContextModule
from vision.models.detection.light_head_rcnn.light_head_rcnn import LightHeadRCNN
from vision.models.detection.light_head_rcnn.light_head_rcnn_resnet101 import (
    LightHeadRCNNResNet101,
)
from vision.models.detection.light_head_rcnn.light_head_rcnn_resnet101_head import (
    LightHeadRCNNResNet101Head,
)
from vision.models.detection.light_head_rcnn.light_head_rcnn_train_chain import (
    LightHeadRCNNTrainChain,
)
from vision.models.detection.light_head_rcnn.ohem_loss import ohem_loss
from vision.models.detection.light_head_rcnn.resnet101_extractor import ResNet101Extractor

__all__ = ['GlobalContextModule', 'LightHeadRCNN', 'LightHeadRCNNResNet101',
           'LightHeadRCNNResNet101Head', 'LightHeadRCNNTrainChain', 'ResNet101Extractor',
           'ohem_loss']
