"""The parts of Faster R-CNN that other region-based detectors reuse: box coding
(:func:`loc2bbox`, :func:`bbox2loc`), anchors (:func:`generate_anchor_base`,
:func:`enumerate_shifted_anchor`), proposals (:class:`ProposalCreator`), training targets
(:class:`AnchorTargetCreator`, :class:`ProposalTargetCreator`), the localisation loss
(:func:`smooth_l1_loss`, :func:`fast_rcnn_loc_loss`) and the detections of each class
(:func:`suppress_per_class`)."""

from vision.models.detection.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator
from vision.models.detection.faster_rcnn.utils.bbox2loc import bbox2loc
from vision.models.detection.faster_rcnn.utils.enumerate_shifted_anchor import (
    enumerate_shifted_anchor,
)
from vision.models.detection.faster_rcnn.utils.generate_anchor_base import generate_anchor_base
from vision.models.detection.faster_rcnn.utils.loc2bbox import loc2bbox
from vision.models.detection.faster_rcnn.utils.proposal_creator import ProposalCreator
from vision.models.detection.faster_rcnn.utils.proposal_target_creator import (
    ProposalTargetCreator,
)
from vision.models.detection.faster_rcnn.utils.smooth_l1_loss import (
    fast_rcnn_loc_loss,
    smooth_l1_loss,
)
from vision.models.detection.faster_rcnn.utils.suppress_per_class import suppress_per_class

__all__ = [
    'AnchorTargetCreator', 'ProposalCreator', 'ProposalTargetCreator', 'bbox2loc',
    'enumerate_shifted_anchor', 'fast_rcnn_loc_loss', 'generate_anchor_base', 'loc2bbox',
    'smooth_l1_loss', 'suppress_per_class',
]
