"""DepthwiseConvolution2D: each input channel convolved with its own filters."""

from __future__ import annotations

import math

from framework import initializers
from framework.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d
from framework.links.connection._weights import add_bias, add_weight, pair
from framework.links.link import Link


class DepthwiseConvolution2D(Link):
    """A two-dimensional depthwise convolution (see
    :func:`~framework.functions.depthwise_convolution_2d`).

    Args:
        in_channels (int or None): the number of input channels; None to infer it.
        channel_multiplier (int): the number of filters per input channel.
        ksize (int or pair of int): the filter size.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the zero padding on both sides.
        nobias (bool): no bias when True.
        initialW: the initializer of ``W``; None for ``HeNormal(1 / sqrt(2))``, as Chainer's.
        initial_bias: the initializer of ``b``; None for zero.

    Attributes:
        W (~framework.Parameter): of shape ``(channel_multiplier, in_channels, kh, kw)``.
        b (~framework.Parameter): of shape ``(channel_multiplier * in_channels,)``, or None.
    """

    def __init__(self, in_channels, channel_multiplier: int, ksize, stride=1, pad=0,
                 nobias: bool = False, initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        if initialW is None:
            initialW = initializers.HeNormal(1.0 / math.sqrt(2))
        add_weight(self, initialW)
        add_bias(self, nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels: int) -> None:
        self.W.initialize((self.channel_multiplier, in_channels) + pair(self.ksize))
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """Applies the convolution to ``x`` of shape ``(N, in_channels, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)
