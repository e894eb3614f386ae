"""SeparableConv2DBNActiv: a depthwise-separable convolution with batch normalizations and
activations (ChainerCV's)."""

from __future__ import annotations

from framework.functions.activation.relu import relu
from framework.links.connection.convolution_2d import Convolution2D
from framework.links.link import Chain
from framework.links.normalization.batch_normalization import BatchNormalization


class SeparableConv2DBNActiv(Chain):
    """A depthwise convolution (child ``depthwise``: a :class:`Convolution2D` with one group
    per input channel), :class:`BatchNormalization` (``dw_bn``), an activation, then a
    pointwise 1x1 convolution (``pointwise``), :class:`BatchNormalization` (``pw_bn``) and
    an activation.

    Args:
        in_channels (int): the number of input channels.
        out_channels (int): the number of output channels.
        ksize, stride, pad, dilate: those of the depthwise convolution.
        nobias (bool): no convolution biases when True.
        dw_initialW, pw_initialW: the initializers of the convolutions' filters.
        dw_initial_bias, pw_initial_bias: the initializers of their biases (zero by default).
        dw_activ (callable or None): the activation after the depthwise part; None for none.
        pw_activ (callable or None): the activation after the pointwise part; None for none.
        bn_kwargs (dict): keyword arguments of the two :class:`BatchNormalization`.
    """

    def __init__(self, in_channels: int, out_channels: int, ksize, stride=1, pad=0, dilate=1,
                 nobias: bool = False, dw_initialW=None, pw_initialW=None,
                 dw_initial_bias=None, pw_initial_bias=None, dw_activ=None, pw_activ=relu,
                 bn_kwargs=None):
        super().__init__()
        self.dw_activ = dw_activ
        self.pw_activ = pw_activ
        bn_kwargs = bn_kwargs or {}
        with self.init_scope():
            self.depthwise = Convolution2D(in_channels, in_channels, ksize, stride, pad, nobias,
                                           dw_initialW, dw_initial_bias, dilate=dilate,
                                           groups=in_channels)
            self.dw_bn = BatchNormalization(in_channels, **bn_kwargs)
            self.pointwise = Convolution2D(in_channels, out_channels, 1, nobias=nobias,
                                           initialW=pw_initialW, initial_bias=pw_initial_bias)
            self.pw_bn = BatchNormalization(out_channels, **bn_kwargs)

    def forward(self, x):
        h = self.dw_bn(self.depthwise(x))
        if self.dw_activ is not None:
            h = self.dw_activ(h)
        h = self.pw_bn(self.pointwise(h))
        return h if self.pw_activ is None else self.pw_activ(h)
