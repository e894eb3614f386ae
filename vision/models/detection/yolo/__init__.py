"""YOLO, ChainerCV's ``chainercv.links.model.yolo``: the detectors :class:`YOLOv2`,
:class:`YOLOv2Tiny` and :class:`YOLOv3`, their extractors, the reading of Darknet's own
weights files, and YOLOv3's training loss."""

from vision.models.detection.yolo.darknet19 import Darknet19Extractor
from vision.models.detection.yolo.darknet53 import Darknet53Extractor, ResidualBlock
from vision.models.detection.yolo.darknet_weights import DarknetWeights
from vision.models.detection.yolo.yolo_base import YOLOBase
from vision.models.detection.yolo.yolo_v2 import YOLOv2, YOLOv2Base
from vision.models.detection.yolo.yolo_v2_tiny import DarknetExtractor, YOLOv2Tiny
from vision.models.detection.yolo.yolo_v3 import YOLOv3
from vision.models.detection.yolo.yolo_v3_train_chain import YOLOv3TrainChain

__all__ = [
    'Darknet19Extractor', 'Darknet53Extractor', 'DarknetExtractor', 'DarknetWeights',
    'ResidualBlock', 'YOLOBase', 'YOLOv2', 'YOLOv2Base', 'YOLOv2Tiny', 'YOLOv3',
    'YOLOv3TrainChain',
]
