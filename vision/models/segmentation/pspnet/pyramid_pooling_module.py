"""The pyramid pooling module of PSPNet (ChainerCV's ``PyramidPoolingModule``)."""

from __future__ import annotations

from collections.abc import Sequence

import framework.functions as F
from framework.links import ChainList, Conv2DBNActiv


class PyramidPoolingModule(ChainList):
    """Pools the features over grids of several sizes, reduces each pooled map with a 1x1
    convolution (batch normalization, ReLU), upsamples it back and concatenates it to the
    features.

    The windows of the average poolings (their strides too) are fixed at construction:
    ``feat_size // pyramid`` for each pyramid level. For an input of 473x473, ChainerCV's
    ``feat_size`` is 473 // 8 = 59 and the windows of the pyramids 6, 3, 2, 1 are 9, 19, 29
    and 59 pixels, which pool the extractor's 60x60 features into 6x6, 3x3, 2x2 and 1x1
    cells.

    Args:
        in_channels (int): the channels of the features.
        feat_size (pair of int): ``(H, W)``, the size of the features the windows are made
            for (ChainerCV: the input size // 8).
        pyramids (sequence of int): the grid sides, one convolution each (its children
            ``0``, ``1``...), with ``in_channels // len(pyramids)`` channels.
        initialW (callable or None): the initializer of the convolutions.
    """

    def __init__(self, in_channels: int, feat_size: tuple[int, int], pyramids: Sequence[int],
                 initialW=None):
        super().__init__()
        out_channels = in_channels // len(pyramids)
        for _ in pyramids:
            self.append(Conv2DBNActiv(in_channels, out_channels, 1, 1, 0, initialW=initialW))
        self.ksizes = [(feat_size[0] // p, feat_size[1] // p) for p in pyramids]

    def forward(self, x):
        """The features followed by each pyramid level's upsampled, reduced pooling.

        Args:
            x (Variable): float32 ``(B, C, H, W)``.

        Returns:
            Variable: float32 ``(B, 2 C, H, W)`` for four levels (``C + len(pyramids) *
            (C // len(pyramids))`` channels).
        """
        size = x.shape[2:]
        levels = [x]
        for conv, ksize in zip(self, self.ksizes):
            pooled = conv(F.average_pooling_2d(x, ksize, ksize))
            levels.append(F.resize_images(pooled, size))
        return F.concat(levels, axis=1)
