"""Darknet-19, YOLOv2's extractor (ChainerCV's ``Darknet19Extractor``)."""

from __future__ import annotations

import framework.functions as F
from framework.links import ChainList
from vision.models.detection.yolo.darknet import darknet_conv, max_pool, reorg

# The links after which the extractor pools; the one whose output the passthrough keeps; the
# last one before the passthrough's 1x1 convolution, which runs on the kept output.
_POOLED = frozenset((0, 1, 4, 7, 12))
_KEPT = 12
_BEFORE_PASSTHROUGH = 19


class Darknet19Extractor(ChainList):
    """Darknet-19 (Redmon and Farhadi, "YOLO9000: Better, Faster, Stronger", CVPR 2017) with
    YOLOv2's detection layers: 22 convolutions (:func:`darknet_conv`), 5 poolings (stride 32)
    and the passthrough from the 26x26 map (:func:`reorg`), as ChainerCV's
    ``Darknet19Extractor``.

    Args:
        base_channels (int): the channels of the first convolution, which the others scale:
            32, Darknet's width, by default.
        insize (int): the side of the input, a multiple of 32 (416 by default).

    Attributes:
        insize (int): as given.
        grid (int): the side of the output map, ``insize // 32``.
        channels (int): the channels of the output map, ``32 * base_channels``.
    """

    def __init__(self, base_channels: int = 32, insize: int = 416):
        super().__init__()
        self.insize = insize
        self.grid = insize // 32
        b = base_channels
        in_channels = 3
        for k, n_conv in enumerate((1, 1, 3, 3, 5, 5)):
            for i in range(n_conv):
                out_channels, ksize = (b << k, 3) if i % 2 == 0 else (b << (k - 1), 1)
                self.append(darknet_conv(in_channels, out_channels, ksize))
                in_channels = out_channels
        self.channels = 32 * b
        self.append(darknet_conv(in_channels, self.channels, 3))
        self.append(darknet_conv(self.channels, self.channels, 3))
        self.append(darknet_conv(16 * b, 2 * b, 1))
        self.append(darknet_conv(8 * b + self.channels, self.channels, 3))

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
            if i == _KEPT:
                kept = h
            elif i == _BEFORE_PASSTHROUGH:
                h, kept = kept, h
            elif i == _BEFORE_PASSTHROUGH + 1:
                h = F.concat((reorg(h), kept))
            if i in _POOLED:
                h = max_pool(h, 2)
        return h
