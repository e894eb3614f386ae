"""Feature Pyramid Network (ChainerCV's ``fpn.FPN``): the extractor of the FPN detectors."""

from __future__ import annotations

from collections.abc import Sequence

import framework.functions as F
from framework import initializers
from framework.links import Chain, ChainList, Convolution2D


class FPN(Chain):
    """Feature Pyramid Network (Lin et al., "Feature Pyramid Networks for Object Detection",
    2017) on a base extractor.

    ``base`` gives ``n_base_output`` feature maps, each half the size of the one before. Each
    goes through a 1x1 convolution (``inner``) to ``channels`` channels and is added to the
    nearest-neighbour upsampling (2x) of the sum of the coarser level, then through a 3x3
    convolution (``outer``). Levels beyond the base's (as many as ``scales`` has more) are
    the last one subsampled by 2 (max pooling of a 1x1 window, stride 2).

    Args:
        base (Link): images ``(N, 3, H, W)`` to ``n_base_output`` feature maps (its
            :attr:`mean` is the extractor's).
        n_base_output (int): the feature maps ``base`` gives.
        scales (sequence of float): the size of each output level relative to the input
            (ChainerCV: ``(1/4, 1/8, 1/16, 1/32, 1/64)``).
        in_channels (sequence of int): the channels of each feature map of ``base`` (None:
            inferred at the first call, as in ChainerCV).
        channels (int): the channels of every level (ChainerCV's 256).

    Attributes:
        scales (tuple of float): as given.
    """

    def __init__(self, base, n_base_output: int, scales: Sequence[float],
                 in_channels: Sequence[int] | None = None, channels: int = 256):
        super().__init__()
        in_channels = in_channels or (None,) * n_base_output
        with self.init_scope():
            self.base = base
            self.inner = ChainList(*(Convolution2D(c, channels, 1,
                                                   initialW=initializers.GlorotNormal())
                                     for c in in_channels))
            self.outer = ChainList(*(Convolution2D(channels, channels, 3, pad=1,
                                                   initialW=initializers.GlorotNormal())
                                     for _ in range(n_base_output)))
        self.scales = tuple(scales)

    @property
    def mean(self):
        """The base's mean, ``(3, 1, 1)``, subtracted from RGB 0-255 images."""
        return self.base.mean

    def forward(self, x):
        """The pyramid of a batch of images.

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, images with the mean subtracted,
                ``H`` and ``W`` multiples of the base's coarsest stride.

        Returns:
            list of Variable: ``len(scales)`` maps ``(N, channels, H_l, W_l)`` float32, from
            the finest level to the coarsest.
        """
        hs = list(self.base(x))
        for i in reversed(range(len(hs))):
            hs[i] = self.inner[i](hs[i])
            if i + 1 < len(hs):
                hs[i] = hs[i] + F.unpooling_2d(hs[i + 1], 2, cover_all=False)
        hs = [outer(h) for outer, h in zip(self.outer, hs)]
        while len(hs) < len(self.scales):
            hs.append(F.max_pooling_2d(hs[-1], 1, stride=2, cover_all=False))
        return hs
