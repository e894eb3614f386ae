"""ExpandedConv2D: MobileNetV2's inverted residual block (ChainerCV's)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Chain
from vision.models.classification.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv
from vision.models.classification.mobilenet.util import expand_input_by_factor

_EXPAND_BY_6 = expand_input_by_factor(6)


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return F.clipped_relu(x, 6.)


class ExpandedConv2D(Chain):
    """An inverted residual block: a 1x1 convolution widening the channels (``expand``, absent
    when the expansion does not widen), a depthwise convolution (``depthwise``), a linear 1x1
    convolution (``project``), each with batch normalization; the input is added to the output
    when their shapes agree.

    Args:
        in_channels (int): the channels of the input.
        out_channels (int): the channels of the output.
        expansion_size (int or callable): the channels inside, or a function of
            ``num_inputs`` giving them (default: six times the input's, made divisible by 8).
        expand_pad, depthwise_pad, project_pad (int, 'SAME' or 'VALID'): the padding of the
            three convolutions.
        depthwise_stride (int or tuple of int): the stride of the depthwise convolution.
        depthwise_ksize (int or tuple of int): its kernel size.
        initialW (callable): the initializer of the kernels.
        bn_kwargs (dict): keyword arguments of the batch normalizations.
    """

    def __init__(self, in_channels: int, out_channels: int,
                 expansion_size=_EXPAND_BY_6, expand_pad='SAME',
                 depthwise_stride=1, depthwise_ksize=3, depthwise_pad='SAME',
                 project_pad='SAME', initialW=None, bn_kwargs: dict | None = None):
        super().__init__()
        if callable(expansion_size):
            expansion_size = expansion_size(num_inputs=in_channels)
        self.inner_size = expansion_size
        kwargs = {'nobias': True, 'initialW': initialW, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            if self.inner_size > in_channels:
                self.expand = TFConv2DBNActiv(in_channels, self.inner_size, 1, pad=expand_pad,
                                              activ=relu6, **kwargs)
                in_channels = self.inner_size
            self.depthwise = TFConv2DBNActiv(in_channels, self.inner_size, depthwise_ksize,
                                             depthwise_stride, depthwise_pad,
                                             groups=in_channels, activ=relu6, **kwargs)
            self.project = TFConv2DBNActiv(self.inner_size, out_channels, 1, pad=project_pad,
                                           activ=None, **kwargs)

    def forward(self, x):
        h = self.expand(x) if hasattr(self, 'expand') else x
        h = self.project(self.depthwise(h))
        return h + x if h.shape == x.shape else h
