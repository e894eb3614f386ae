"""Faster R-CNN (ChainerCV's ``faster_rcnn``): the model (:class:`FasterRCNN`), its parts
(:class:`RegionProposalNetwork`, :class:`VGG16RoIHead`), the VGG-16 variant
(:class:`FasterRCNNVGG16`), the training chain (:class:`FasterRCNNTrainChain`) and, in
:mod:`~vision.models.detection.faster_rcnn.utils`, the parts other region-based detectors
reuse."""

from vision.models.detection.faster_rcnn.faster_rcnn import FasterRCNN
from vision.models.detection.faster_rcnn.faster_rcnn_train_chain import FasterRCNNTrainChain
from vision.models.detection.faster_rcnn.faster_rcnn_vgg16 import FasterRCNNVGG16
from vision.models.detection.faster_rcnn.region_proposal_network import RegionProposalNetwork
from vision.models.detection.faster_rcnn.utils import (
    AnchorTargetCreator,
    ProposalCreator,
    ProposalTargetCreator,
    bbox2loc,
    generate_anchor_base,
    loc2bbox,
)
from vision.models.detection.faster_rcnn.vgg16_roi_head import VGG16RoIHead

__all__ = [
    'AnchorTargetCreator', 'FasterRCNN', 'FasterRCNNTrainChain', 'FasterRCNNVGG16',
    'ProposalCreator', 'ProposalTargetCreator', 'RegionProposalNetwork', 'VGG16RoIHead',
    'bbox2loc', 'generate_anchor_base', 'loc2bbox',
]
