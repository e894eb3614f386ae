"""Darknet-53, YOLOv3's extractor (ChainerCV's ``Darknet53Extractor`` and ``ResidualBlock``)."""

from __future__ import annotations

import framework.functions as F
from framework.links import ChainList
from vision.models.detection.yolo.darknet import darknet_conv, upsample

# The links whose outputs the upsampled maps are concatenated with (the ends of the stages of
# strides 8 and 16); those whose outputs are upsampled.
_SKIPS = frozenset((14, 23))
_UPSAMPLED = frozenset((34, 40))


class ResidualBlock(ChainList):
    """Links applied in turn, their input added to their output (ChainerCV's
    ``ResidualBlock``).

    Args:
        links (Link): the links, in order; the last gives as many channels as the first
            takes.
    """

    def forward(self, x):
        """``x`` plus the links' output: of the shape of ``x``."""
        h = x
        for link in self:
            h = link(h)
        return h + x


class Darknet53Extractor(ChainList):
    """Darknet-53 (Redmon and Farhadi, "YOLOv3: An Incremental Improvement", 2018) with
    YOLOv3's detection layers, as ChainerCV's ``Darknet53Extractor``: 23 residual blocks in
    five stages of stride 2, then for each of three scales (strides 32, 16 and 8) five
    convolutions, the coarser map upsampled and concatenated with the end of the finer
    stage.

    Args:
        base_channels (int): the channels of the first convolution, which the others scale:
            32, Darknet's width, by default.
        insize (int): the side of the input, a multiple of 32 (416 by default).

    Attributes:
        insize (int): as given.
        outputs (tuple of three ints): the indices of the links whose outputs are the maps.
        grids (tuple of three ints): the sides of the feature maps, ``insize // 32``,
            ``insize // 16``, ``insize // 8``.
        channels (tuple of three ints): their channels, ``16 * base_channels``,
            ``8 * base_channels``, ``4 * base_channels``.
    """

    outputs = (33, 39, 45)

    def __init__(self, base_channels: int = 32, insize: int = 416):
        super().__init__()
        self.insize = insize
        self.grids = (insize // 32, insize // 16, insize // 8)
        b = base_channels
        self.append(darknet_conv(3, b, 3))
        for k, n_block in enumerate((1, 2, 8, 8, 4)):
            self.append(darknet_conv(b << k, b << (k + 1), 3, stride=2))
            for _ in range(n_block):
                self.append(ResidualBlock(darknet_conv(b << (k + 1), b << k, 1),
                                          darknet_conv(b << k, b << (k + 1), 3)))
        self.channels = (16 * b, 8 * b, 4 * b)
        in_channels = 32 * b
        for i, n in enumerate(self.channels):
            if i > 0:
                self.append(darknet_conv(2 * n, n, 1))
                in_channels = n + 2 * n
            self.append(darknet_conv(in_channels, n, 1))
            self.append(darknet_conv(n, 2 * n, 3))
            self.append(darknet_conv(2 * n, n, 1))
            self.append(darknet_conv(n, 2 * n, 3))
            self.append(darknet_conv(2 * n, n, 1))

    def forward(self, x):
        """The three feature maps of a batch.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``.

        Returns:
            list of three Variables: float32 ``(B, channels[i], grids[i], grids[i])``.
        """
        ys, skips = [], []
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i in self.outputs:
                ys.append(h)
            elif i in _SKIPS:
                skips.append(h)
            elif i in _UPSAMPLED:
                h = F.concat((upsample(h), skips.pop()))
        return ys
