"""ConvolutionND, Convolution1D, Convolution3D: N-dimensional convolutional layers."""

from __future__ import annotations

from framework.functions.connection.convolution_nd import convolution_nd
from framework.links.connection._weights import (
    add_bias,
    add_weight,
    as_tuple,
    check_groups,
    shift_lazy_arguments,
)
from framework.links.link import Link
from framework.variable import as_array


class ConvolutionND(Link):
    """An N-dimensional convolutional layer (see :func:`~framework.functions.convolution_nd`).

    Args:
        ndim (int): the number of spatial axes.
        in_channels (int or None): the number of input channels; None to infer it (or give
            only ``out_channels, ksize`` after ``ndim``).
        out_channels (int): the number of output channels.
        ksize (int or tuple of int): the filter size.
        stride (int or tuple of int): the step between windows.
        pad (int or tuple of int): the zero padding on both sides.
        nobias (bool): no bias when True.
        initialW: the initializer of ``W``; None for LeCunNormal.
        initial_bias: the initializer of ``b``; None for zero.
        cover_all (bool): see :func:`~framework.functions.convolution_nd`.
        dilate (int or tuple of int): the dilation of the filters.
        groups (int): the number of channel groups; it must divide both channel counts.

    Attributes:
        W (~framework.Parameter): of shape ``(out_channels, in_channels / groups, *ksize)``.
        b (~framework.Parameter): of shape ``(out_channels,)``, or None.
    """

    def __init__(self, ndim: int, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, initialW=None, initial_bias=None,
                 cover_all: bool = False, dilate=1, groups: int = 1):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        name = type(self).__name__
        self.out_channels = out_channels
        self.ksize = as_tuple(name, ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = as_tuple(name, dilate, ndim)
        self.groups = int(groups)
        add_weight(self, initialW)
        if in_channels is not None:
            self._initialize_params(in_channels)
        add_bias(self, nobias, initial_bias, out_channels)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias: bool = False, *,
                    cover_all: bool = False, dilate=1, groups: int = 1) -> ConvolutionND:
        """A ConvolutionND whose parameters are copies of ``W`` (and ``b``)."""
        out_channels, in_per_group, *ksize = W.shape
        if b is not None and b.size != out_channels:
            raise ValueError(f'ConvolutionND.from_params: b must have {out_channels} elements '
                             f'(W.shape[0]), but got {b.size}')
        return ConvolutionND(len(ksize), in_per_group * groups, out_channels, tuple(ksize),
                             stride, pad, nobias, initialW=as_array(W),
                             initial_bias=as_array(b), cover_all=cover_all, dilate=dilate,
                             groups=groups)

    def _initialize_params(self, in_channels: int) -> None:
        check_groups(type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((self.out_channels, in_channels // self.groups) + self.ksize)

    def forward(self, x):
        """Applies the convolution to ``x`` of shape ``(N, in_channels, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_nd(x, self.W, self.b, self.stride, self.pad,
                              cover_all=self.cover_all, dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """A one-dimensional :class:`ConvolutionND`."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, initialW=None, initial_bias=None,
                 cover_all: bool = False, dilate=1, groups: int = 1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """A three-dimensional :class:`ConvolutionND`."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, initialW=None, initial_bias=None,
                 cover_all: bool = False, dilate=1, groups: int = 1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)
