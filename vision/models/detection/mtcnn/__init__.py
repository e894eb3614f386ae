"""MTCNN (Zhang et al., 2016): face detection with five landmarks, in small parts: the nets
(:class:`PNet`, :class:`RNet`, :class:`ONet`), area resampling from a summed-area table, the
image pyramid, the crops, the box arithmetic, the suppressions, the three stages, and
facenet-pytorch's weights."""

from vision.models.detection.mtcnn.facenet_pytorch import (
    FACENET_PYTORCH_FILES,
    convert_facenet_pytorch,
    load_facenet_pytorch_weights,
)
from vision.models.detection.mtcnn.mtcnn import MTCNN
from vision.models.detection.mtcnn.o_net import ONet
from vision.models.detection.mtcnn.p_net import PNet
from vision.models.detection.mtcnn.r_net import RNet

__all__ = [
    'FACENET_PYTORCH_FILES', 'MTCNN', 'ONet', 'PNet', 'RNet', 'convert_facenet_pytorch',
    'load_facenet_pytorch_weights',
]
