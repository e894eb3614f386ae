"""Evaluation metrics with ChainerCV's names: PASCAL VOC, MS COCO (boxes, masks, keypoints)
and semantic segmentation; and the top-k accuracy of classifiers."""

from vision.evaluations.eval_classification import eval_classification
from vision.evaluations.eval_detection_coco import eval_detection_coco
from vision.evaluations.eval_detection_voc import (
    calc_detection_voc_ap,
    calc_detection_voc_prec_rec,
    eval_detection_voc,
)
from vision.evaluations.eval_instance_segmentation_coco import eval_instance_segmentation_coco
from vision.evaluations.eval_instance_segmentation_voc import (
    calc_instance_segmentation_voc_prec_rec,
    eval_instance_segmentation_voc,
)
from vision.evaluations.eval_keypoint_detection_coco import eval_keypoint_detection_coco
from vision.evaluations.eval_semantic_segmentation import (
    calc_semantic_segmentation_confusion,
    calc_semantic_segmentation_iou,
    eval_semantic_segmentation,
)

__all__ = [
    'calc_detection_voc_ap',
    'calc_detection_voc_prec_rec',
    'calc_instance_segmentation_voc_prec_rec',
    'calc_semantic_segmentation_confusion',
    'calc_semantic_segmentation_iou',
    'eval_classification',
    'eval_detection_coco',
    'eval_detection_voc',
    'eval_instance_segmentation_coco',
    'eval_instance_segmentation_voc',
    'eval_keypoint_detection_coco',
    'eval_semantic_segmentation',
]
