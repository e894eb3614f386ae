"""Detection models: each family in its subpackage (``faster_rcnn``, ``mtcnn``)."""

from vision.models.detection.faster_rcnn import FasterRCNNVGG16
from vision.models.detection.mtcnn import MTCNN

__all__ = ['FasterRCNNVGG16', 'MTCNN']
