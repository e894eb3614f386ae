"""Conv2DActiv: a convolution followed by an activation (ChainerCV's)."""

from __future__ import annotations

from framework.functions.activation.relu import relu
from framework.links.connection._weights import shift_lazy_arguments
from framework.links.connection.convolution_2d import Convolution2D
from framework.links.link import Chain


class Conv2DActiv(Chain):
    """:class:`Convolution2D` (the child ``conv``), then an activation.

    The arguments are those of :class:`Convolution2D` (with the same short forms:
    ``Conv2DActiv(out_channels, ksize)``, ``Conv2DActiv(None, out_channels, ksize)``), and:

    Args:
        activ (callable or None): the activation; None for none.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias: bool = False, initialW=None, initial_bias=None, activ=relu):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.activ = activ
        with self.init_scope():
            self.conv = Convolution2D(in_channels, out_channels, ksize, stride, pad, nobias,
                                      initialW, initial_bias, dilate=dilate)

    def forward(self, x):
        h = self.conv(x)
        return h if self.activ is None else self.activ(h)
