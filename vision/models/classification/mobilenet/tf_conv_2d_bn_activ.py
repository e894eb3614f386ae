"""TFConv2DBNActiv: a TFConvolution2D, a batch normalization and an activation (ChainerCV's)."""

from __future__ import annotations

import framework.functions as F
from framework.links import BatchNormalization, Chain
from vision.models.classification.mobilenet.tf_convolution_2d import TFConvolution2D


class TFConv2DBNActiv(Chain):
    """:class:`TFConvolution2D` (``conv``, without bias by default), then
    :class:`~framework.links.BatchNormalization` (``bn``), then an activation.

    The arguments are those of :class:`~framework.links.Conv2DBNActiv`, with ``pad`` also
    ``'SAME'`` (the default) or ``'VALID'`` as in TensorFlow.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad='SAME', dilate=1,
                 groups: int = 1, nobias: bool = True, initialW=None, initial_bias=None,
                 activ=F.relu, bn_kwargs: dict | None = None):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.activ = activ
        with self.init_scope():
            self.conv = TFConvolution2D(in_channels, out_channels, ksize, stride, pad, nobias,
                                        initialW, initial_bias, dilate=dilate, groups=groups)
            self.bn = BatchNormalization(out_channels, **(bn_kwargs or {}))

    def forward(self, x):
        h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)
