"""The residual blocks of the ResNet family (ChainerCV's ``ResBlock`` and ``Bottleneck``)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Chain, Conv2DBNActiv, PickableSequentialChain, SEBlock


class ResBlock(PickableSequentialChain):
    """A stage of a ResNet: a :class:`Bottleneck` with a projection shortcut (``a``), then
    ``n_layer - 1`` bottlenecks with identity shortcuts (``b1``, ``b2``...).

    Args:
        n_layer (int): the number of bottlenecks.
        in_channels (int or None): the channels of the input (None: inferred at the first
            call).
        mid_channels (int): the channels inside the bottlenecks.
        out_channels (int): the channels of the output.
        stride (int or tuple of int): the stride of the first bottleneck.
        dilate (int or tuple of int): the dilation of the 3x3 convolutions.
        groups (int): the groups of the 3x3 convolutions (32 in ResNeXt).
        initialW (callable): the initializer of the convolution kernels.
        bn_kwargs (dict): keyword arguments of the batch normalizations.
        stride_first (bool): stride on the first 1x1 convolution (the original ResNet, arch
            ``'he'``) rather than on the 3x3 one (arch ``'fb'``).
        add_seblock (bool): end each residual branch with a squeeze-and-excitation block.
        first_dilate (int, tuple of int or None): the dilation of the first bottleneck's 3x3
            convolution (None: ``dilate``); torchvision's dilated ResNets keep there the
            dilation of the stage before.
    """

    def __init__(self, n_layer: int, in_channels: int | None, mid_channels: int,
                 out_channels: int, stride=1, dilate=1, groups: int = 1, initialW=None,
                 bn_kwargs: dict | None = None, stride_first: bool = False,
                 add_seblock: bool = False, first_dilate=None):
        super().__init__()
        kwargs = {'groups': groups, 'initialW': initialW, 'bn_kwargs': bn_kwargs,
                  'add_seblock': add_seblock}
        with self.init_scope():
            self.a = Bottleneck(in_channels, mid_channels, out_channels, stride,
                                dilate if first_dilate is None else first_dilate,
                                residual_conv=True, stride_first=stride_first, **kwargs)
            for i in range(1, n_layer):
                setattr(self, f'b{i}', Bottleneck(out_channels, mid_channels, out_channels,
                                                  dilate=dilate, **kwargs))


class Bottleneck(Chain):
    """A bottleneck: 1x1, 3x3 and 1x1 convolutions with batch normalization (``conv1``,
    ``conv2``, ``conv3``), an optional squeeze-and-excitation block (``se``), added to the
    shortcut (the input, or its projection ``residual_conv``), then ReLU.

    Args:
        in_channels (int or None): the channels of the input.
        mid_channels (int): the channels of the 3x3 convolution.
        out_channels (int): the channels of the output.
        stride (int or tuple of int): the stride (on ``conv1`` if ``stride_first``, else on
            ``conv2``; always on ``residual_conv``).
        dilate (int or tuple of int): the dilation (and padding) of ``conv2``.
        groups (int): the groups of ``conv2``.
        initialW (callable): the initializer of the kernels.
        bn_kwargs (dict): keyword arguments of the batch normalizations.
        residual_conv (bool): project the shortcut with a 1x1 convolution.
        stride_first (bool): see above.
        add_seblock (bool): add the squeeze-and-excitation block.
    """

    def __init__(self, in_channels: int | None, mid_channels: int, out_channels: int,
                 stride=1, dilate=1, groups: int = 1, initialW=None,
                 bn_kwargs: dict | None = None, residual_conv: bool = False,
                 stride_first: bool = False, add_seblock: bool = False):
        super().__init__()
        first_stride, second_stride = (stride, 1) if stride_first else (1, stride)
        kwargs = {'nobias': True, 'initialW': initialW, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(in_channels, mid_channels, 1, first_stride, 0,
                                       **kwargs)
            self.conv2 = Conv2DBNActiv(mid_channels, mid_channels, 3, second_stride, dilate,
                                       dilate, groups, **kwargs)
            self.conv3 = Conv2DBNActiv(mid_channels, out_channels, 1, 1, 0, activ=None,
                                       **kwargs)
            if add_seblock:
                self.se = SEBlock(out_channels)
            if residual_conv:
                self.residual_conv = Conv2DBNActiv(in_channels, out_channels, 1, stride, 0,
                                                   activ=None, **kwargs)

    def forward(self, x):
        h = self.conv3(self.conv2(self.conv1(x)))
        if hasattr(self, 'se'):
            h = self.se(h)
        residual = self.residual_conv(x) if hasattr(self, 'residual_conv') else x
        return F.relu(h + residual)
