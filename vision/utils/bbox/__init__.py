"""Bounding box helpers: IoU and non-maximum suppression."""

from vision.utils.bbox.bbox_iou import bbox_iou
from vision.utils.bbox.non_maximum_suppression import (
    batched_non_maximum_suppression,
    non_maximum_suppression,
)

__all__ = ['batched_non_maximum_suppression', 'bbox_iou', 'non_maximum_suppression']
