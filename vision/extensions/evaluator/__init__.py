"""Evaluators: trainer extensions that score ``target.predict`` over a validation set."""

from vision.extensions.evaluator.detection_coco_evaluator import DetectionCOCOEvaluator
from vision.extensions.evaluator.detection_voc_evaluator import DetectionVOCEvaluator
from vision.extensions.evaluator.instance_segmentation_coco_evaluator import (
    InstanceSegmentationCOCOEvaluator,
)
from vision.extensions.evaluator.instance_segmentation_voc_evaluator import (
    InstanceSegmentationVOCEvaluator,
)
from vision.extensions.evaluator.semantic_segmentation_evaluator import (
    SemanticSegmentationEvaluator,
)

__all__ = ['DetectionCOCOEvaluator', 'DetectionVOCEvaluator',
           'InstanceSegmentationCOCOEvaluator', 'InstanceSegmentationVOCEvaluator',
           'SemanticSegmentationEvaluator']
