"""Convolution2D: the two-dimensional convolutional layer."""

from __future__ import annotations

from framework.functions.connection.convolution_2d import convolution_2d
from framework.links.connection._weights import (
    add_bias,
    add_weight,
    check_groups,
    pair,
    shift_lazy_arguments,
)
from framework.links.link import Link
from framework.variable import as_array


class Convolution2D(Link):
    """A two-dimensional convolutional layer (see :func:`~framework.functions.convolution_2d`).

    ``Convolution2D(3, 7, 5)`` maps 3 channels to 7 with 5x5 filters; ``Convolution2D(7, 5)``
    and ``Convolution2D(None, 7, 5)`` infer the input channels from the first input (in the
    short form, give ``stride`` and what follows by keyword).

    Args:
        in_channels (int or None): the number of input channels; None to infer it.
        out_channels (int): the number of output channels.
        ksize (int or pair of int): the filter size.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the zero padding on both sides.
        nobias (bool): no bias when True.
        initialW: the initializer of ``W``; None for LeCunNormal.
        initial_bias: the initializer of ``b``; None for zero.
        dilate (int or pair of int): the dilation of the filters.
        groups (int): the number of channel groups; it must divide both channel counts.

    Attributes:
        W (~framework.Parameter): the filters, of shape
            ``(out_channels, in_channels / groups, kh, kw)``.
        b (~framework.Parameter): the bias, of shape ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias: bool = False, initialW=None, initial_bias=None, *, dilate=1,
                 groups: int = 1):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.dilate = pair(dilate)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.groups = int(groups)
        add_weight(self, initialW)
        if in_channels is not None:
            self._initialize_params(in_channels)
        add_bias(self, nobias, initial_bias, out_channels)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias: bool = False, *, dilate=1,
                    groups: int = 1) -> Convolution2D:
        """A Convolution2D whose parameters are copies of ``W`` (and ``b``)."""
        out_channels, in_per_group, kh, kw = W.shape
        if b is not None and b.size != out_channels:
            raise ValueError(f'Convolution2D.from_params: b must have {out_channels} elements '
                             f'(W.shape[0]), but got {b.size}')
        return cls(in_per_group * groups, out_channels, (kh, kw), stride, pad, nobias,
                   initialW=as_array(W), initial_bias=as_array(b), dilate=dilate,
                   groups=groups)

    @property
    def printable_specs(self):
        yield from (('in_channels', self.in_channels), ('out_channels', self.out_channels),
                    ('ksize', self.ksize), ('stride', self.stride), ('pad', self.pad),
                    ('nobias', self.b is None), ('dilate', self.dilate),
                    ('groups', self.groups))

    def _initialize_params(self, in_channels: int) -> None:
        check_groups(type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((self.out_channels, in_channels // self.groups) + pair(self.ksize))

    def forward(self, x):
        """Applies the convolution to ``x`` of shape ``(N, in_channels, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_2d(x, self.W, self.b, self.stride, self.pad, dilate=self.dilate,
                              groups=self.groups)
