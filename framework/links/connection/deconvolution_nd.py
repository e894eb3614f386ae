"""DeconvolutionND, Deconvolution1D, Deconvolution3D: N-dimensional transposed convolutions."""

from __future__ import annotations

from framework.functions.connection.deconvolution_nd import deconvolution_nd
from framework.links.connection._weights import (
    add_bias,
    add_weight,
    as_tuple,
    check_groups,
    shift_lazy_arguments,
)
from framework.links.link import Link


class DeconvolutionND(Link):
    """An N-dimensional transposed convolution (see
    :func:`~framework.functions.deconvolution_nd`).

    Args:
        ndim (int): the number of spatial axes.
        in_channels (int or None): the number of input channels; None to infer it (or give
            only ``out_channels, ksize`` after ``ndim``).
        out_channels (int): the number of output channels.
        ksize (int or tuple of int): the filter size.
        stride (int or tuple of int): the step between windows.
        pad (int or tuple of int): the padding removed on both sides.
        nobias (bool): no bias when True.
        outsize (None or tuple of int): the output's spatial size; None to infer it.
        initialW: the initializer of ``W``; None for LeCunNormal.
        initial_bias: the initializer of ``b``; None for zero.
        dilate (int or tuple of int): the dilation of the filters.
        groups (int): the number of channel groups; it must divide both channel counts.

    Attributes:
        W (~framework.Parameter): of shape ``(in_channels, out_channels / groups, *ksize)``.
        b (~framework.Parameter): of shape ``(out_channels,)``, or None.
    """

    def __init__(self, ndim: int, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups: int = 1):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        name = type(self).__name__
        self.out_channels = out_channels
        self.ksize = as_tuple(name, ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = as_tuple(name, dilate, ndim)
        self.groups = int(groups)
        add_weight(self, initialW)
        if in_channels is not None:
            self._initialize_params(in_channels)
        add_bias(self, nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        check_groups(type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((in_channels, self.out_channels // self.groups) + self.ksize)

    def forward(self, x):
        """Applies the transposed convolution to ``x`` of shape
        ``(N, in_channels, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_nd(x, self.W, self.b, self.stride, self.pad, self.outsize,
                                dilate=self.dilate, groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """A one-dimensional :class:`DeconvolutionND`."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups: int = 1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """A three-dimensional :class:`DeconvolutionND`."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups: int = 1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
