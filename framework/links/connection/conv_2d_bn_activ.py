"""Conv2DBNActiv: a convolution, a batch normalization and an activation (ChainerCV's)."""

from __future__ import annotations

from framework.functions.activation.relu import relu
from framework.links.connection._weights import shift_lazy_arguments
from framework.links.connection.convolution_2d import Convolution2D
from framework.links.link import Chain
from framework.links.normalization.batch_normalization import BatchNormalization


class Conv2DBNActiv(Chain):
    """:class:`Convolution2D` (the child ``conv``, without bias by default), then
    :class:`BatchNormalization` (the child ``bn``), then an activation.

    The arguments are those of :class:`Convolution2D` (with the same short forms), and:

    Args:
        activ (callable or None): the activation; None for none.
        bn_kwargs (dict): keyword arguments of the :class:`BatchNormalization`.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 groups: int = 1, nobias: bool = True, initialW=None, initial_bias=None,
                 activ=relu, bn_kwargs=None):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.activ = activ
        with self.init_scope():
            self.conv = Convolution2D(in_channels, out_channels, ksize, stride, pad, nobias,
                                      initialW, initial_bias, dilate=dilate, groups=groups)
            self.bn = BatchNormalization(out_channels, **(bn_kwargs or {}))

    def forward(self, x):
        h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)
