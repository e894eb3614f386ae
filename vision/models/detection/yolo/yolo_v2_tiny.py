"""YOLOv2Tiny (ChainerCV's experimental ``YOLOv2Tiny`` and ``DarknetExtractor``): YOLOv2's
head on a plain stack of eight convolutions."""

from __future__ import annotations

from framework.links import ChainList
from vision.models._registry import register_model
from vision.models.detection.yolo.darknet import darknet_conv, max_pool
from vision.models.detection.yolo.yolo_v2 import YOLOv2Base

# The convolutions before the sixth are followed by a pooling of stride 2, the sixth by one of
# stride 1.
_HALVED = 5
_KEPT_SIZE = 5


class DarknetExtractor(ChainList):
    """Tiny YOLO's extractor, ChainerCV's ``DarknetExtractor``: seven 3x3 convolutions
    doubling the channels, each of the first five followed by a pooling of stride 2 and the
    sixth by one of stride 1, and an eighth 3x3 convolution.

    Args:
        base_channels (int): the channels of the first convolution: 16, Darknet's width,
            by default.
        insize (int): the side of the input, a multiple of 32 (416 by default).

    Attributes:
        insize (int): as given.
        grid (int): the side of the output map, ``insize // 32``.
        channels (int): the channels of the output map, ``64 * base_channels``.
    """

    def __init__(self, base_channels: int = 16, insize: int = 416):
        super().__init__()
        self.insize = insize
        self.grid = insize // 32
        in_channels = 3
        for k in range(7):
            self.append(darknet_conv(in_channels, base_channels << k, 3))
            in_channels = base_channels << k
        self.channels = 64 * base_channels
        self.append(darknet_conv(in_channels, self.channels, 3))

    def forward(self, x):
        """The feature map of a batch.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``.

        Returns:
            Variable: float32 ``(B, channels, grid, grid)``.
        """
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i < _HALVED:
                h = max_pool(h, 2)
            elif i == _KEPT_SIZE:
                h = max_pool(h, 2, stride=1)
        return h


@register_model('yolo_v2_tiny')
class YOLOv2Tiny(YOLOv2Base):
    """Tiny YOLO, the small YOLOv2 of Darknet (``yolov2-tiny-voc.cfg``), ChainerCV's
    experimental ``YOLOv2Tiny``: :class:`DarknetExtractor` (width 16), 13x13x5 boxes at 416.
    ``pretrained_model``, the arguments, attributes and errors are those of
    :class:`~vision.models.detection.yolo.YOLOv2Base`.
    """

    _extractor = DarknetExtractor
    _base_channels = 16
    _anchors = ((1.19, 1.08), (4.41, 3.42), (11.38, 6.63), (5.11, 9.42), (10.52, 16.62))
