"""Detection models: each family in its subpackage (``mtcnn``)."""

from vision.models.detection.mtcnn import MTCNN

__all__ = ['MTCNN']
