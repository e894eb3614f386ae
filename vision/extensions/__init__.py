"""Trainer extensions of the zoo, with ChainerCV's names (``chainercv.extensions``).

- Evaluators, which run ``target.predict`` over a validation set and report the metrics of
  :mod:`vision.evaluations` (``'validation/main/map'``...): :class:`DetectionVOCEvaluator`,
  :class:`DetectionCOCOEvaluator`, :class:`SemanticSegmentationEvaluator`,
  :class:`InstanceSegmentationVOCEvaluator`, :class:`InstanceSegmentationCOCOEvaluator`.
- Visual reports, which save drawings of the predictions into the trainer's output directory:
  :class:`DetectionVisReport`.

Example:
    >>> trainer.extend(DetectionVOCEvaluator(val_iter, model, use_07_metric=True,
    ...                                      label_names=voc_bbox_label_names),
    ...                trigger=(10000, 'iteration'))
"""

from vision.extensions.evaluator import (
    DetectionCOCOEvaluator,
    DetectionVOCEvaluator,
    InstanceSegmentationCOCOEvaluator,
    InstanceSegmentationVOCEvaluator,
    SemanticSegmentationEvaluator,
)
from vision.extensions.vis_report import DetectionVisReport

__all__ = ['DetectionCOCOEvaluator', 'DetectionVOCEvaluator', 'DetectionVisReport',
           'InstanceSegmentationCOCOEvaluator', 'InstanceSegmentationVOCEvaluator',
           'SemanticSegmentationEvaluator']
