"""DilatedConvolution2D: the two-dimensional convolutional layer with dilated filters."""

from __future__ import annotations

from framework.functions.connection.dilated_convolution_2d import dilated_convolution_2d
from framework.links.connection._weights import add_bias, add_weight, pair, shift_lazy_arguments
from framework.links.link import Link


class DilatedConvolution2D(Link):
    """A two-dimensional convolutional layer with dilated filters (see
    :func:`~framework.functions.dilated_convolution_2d`).

    Args:
        in_channels (int or None): the number of input channels; None to infer it (or give
            only ``out_channels, ksize``).
        out_channels (int): the number of output channels.
        ksize (int or pair of int): the filter size.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the zero padding on both sides.
        dilate (int or pair of int): the dilation of the filters.
        nobias (bool): no bias when True.
        initialW: the initializer of ``W``; None for LeCunNormal.
        initial_bias: the initializer of ``b``; None for zero.

    Attributes:
        W (~framework.Parameter): of shape ``(out_channels, in_channels, kh, kw)``.
        b (~framework.Parameter): of shape ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias: bool = False, initialW=None, initial_bias=None):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.dilate = pair(dilate)
        self.out_channels = out_channels
        add_weight(self, initialW)
        if in_channels is not None:
            self._initialize_params(in_channels)
        add_bias(self, nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        self.W.initialize((self.out_channels, in_channels) + pair(self.ksize))

    def forward(self, x):
        """Applies the convolution to ``x`` of shape ``(N, in_channels, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return dilated_convolution_2d(x, self.W, self.b, self.stride, self.pad, self.dilate)
