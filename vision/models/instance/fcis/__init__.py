"""FCIS (ChainerCV's experimental ``fcis``): the model (:class:`FCISResNet101` on
:class:`FCIS`), its parts (:class:`ResNet101Extractor`, :class:`FCISResNet101Head`), the
merging of masks (:func:`mask_voting`) and the training chain (:class:`FCISTrainChain`) with
its targets (:class:`ProposalTargetCreator`); the RPN and the box coding are Faster R-CNN's."""

from vision.models.instance.fcis.fcis import FCIS
from vision.models.instance.fcis.fcis_resnet101 import FCISResNet101
from vision.models.instance.fcis.fcis_resnet101_head import FCISResNet101Head
from vision.models.instance.fcis.fcis_train_chain import FCISTrainChain
from vision.models.instance.fcis.mask_voting import mask_voting
from vision.models.instance.fcis.proposal_target_creator import ProposalTargetCreator
from vision.models.instance.fcis.resnet101_extractor import ResNet101Extractor

__all__ = ['FCIS', 'FCISResNet101', 'FCISResNet101Head', 'FCISTrainChain',
           'ProposalTargetCreator', 'ResNet101Extractor', 'mask_voting']
