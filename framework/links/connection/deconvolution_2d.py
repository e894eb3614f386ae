"""Deconvolution2D: the two-dimensional transposed convolutional layer."""

from __future__ import annotations

from framework.functions.connection.deconvolution_2d import deconvolution_2d
from framework.links.connection._weights import (
    add_bias,
    add_weight,
    check_groups,
    pair,
    shift_lazy_arguments,
)
from framework.links.link import Link


class Deconvolution2D(Link):
    """A two-dimensional transposed convolution (see
    :func:`~framework.functions.deconvolution_2d`).

    Args:
        in_channels (int or None): the number of input channels; None to infer it (or give
            only ``out_channels, ksize``).
        out_channels (int): the number of output channels.
        ksize (int or pair of int): the filter size.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the padding removed on both sides.
        nobias (bool): no bias when True.
        outsize (None or pair of int): the output's spatial size; None to infer it.
        initialW: the initializer of ``W``; None for LeCunNormal.
        initial_bias: the initializer of ``b``; None for zero.
        dilate (int or pair of int): the dilation of the filters.
        groups (int): the number of channel groups; it must divide both channel counts.

    Attributes:
        W (~framework.Parameter): of shape ``(in_channels, out_channels / groups, kh, kw)``.
        b (~framework.Parameter): of shape ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, outsize=None, initialW=None, initial_bias=None, *,
                 dilate=1, groups: int = 1):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.dilate = pair(dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        add_weight(self, initialW)
        if in_channels is not None:
            self._initialize_params(in_channels)
        add_bias(self, nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        check_groups(type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((in_channels, self.out_channels // self.groups) + pair(self.ksize))

    def forward(self, x):
        """Applies the transposed convolution to ``x`` of shape ``(N, in_channels, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_2d(x, self.W, self.b, self.stride, self.pad, self.outsize,
                                dilate=self.dilate, groups=self.groups)
