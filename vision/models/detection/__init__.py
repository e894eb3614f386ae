"""Detection models: each family in its subpackage (``faster_rcnn``, ``fpn``,
``light_head_rcnn``, ``mtcnn``, ``ssd``, ``yolo``)."""

from vision.models.detection.faster_rcnn import FasterRCNNVGG16
from vision.models.detection.fpn import FasterRCNNFPNResNet50, FasterRCNNFPNResNet101
from vision.models.detection.light_head_rcnn import LightHeadRCNNResNet101
from vision.models.detection.mtcnn import MTCNN
from vision.models.detection.ssd import SSD300, SSD512
from vision.models.detection.yolo import YOLOv2, YOLOv2Tiny, YOLOv3

__all__ = ['FasterRCNNFPNResNet50', 'FasterRCNNFPNResNet101', 'FasterRCNNVGG16',
           'LightHeadRCNNResNet101', 'MTCNN', 'SSD300', 'SSD512', 'YOLOv2', 'YOLOv2Tiny',
           'YOLOv3']
