"""The block of Xception65 (ChainerCV's ``XceptionBlock``)."""

from __future__ import annotations

from collections.abc import Sequence

import framework.functions as F
from framework.links import Conv2DBNActiv, SeparableConv2DBNActiv
from framework.links.link import Chain

_SKIP_TYPES = ('conv', 'sum', 'none')


class XceptionBlock(Chain):
    """Three 3x3 separable convolutions (children ``separable1``, ``separable2``,
    ``separable3``: :class:`~framework.links.SeparableConv2DBNActiv`, without biases), the
    last one striding, and a skip connection.

    The input goes through a ReLU first when ``activ_first`` (after the sum otherwise). The
    block returns its output and that of ``separable2`` before its pointwise activation (the
    low-level features DeepLab v3+ takes from the second block of the entry flow).

    Args:
        in_channels (int): the channels of the input.
        depthlist (sequence of int): the output channels of the three separable convolutions.
        stride (int): the stride of ``separable3`` (and of the skip convolution).
        dilate (int): the dilation of the three depthwise convolutions (their padding too).
        skip_type (str): ``'conv'``: the input through a 1x1 convolution with batch
            normalization (child ``conv``, striding) is added to the output; ``'sum'``: the
            input is added; ``'none'``: no skip connection.
        activ_first (bool): apply the ReLU to the input (True) or to the output (False).
        bn_kwargs (dict or None): keyword arguments of every batch normalization.
        dw_activ_list (sequence of callable or None): the activations after the depthwise
            part of each separable convolution (None: none).
        pw_activ_list (sequence of callable or None): the activations after the pointwise
            part of each separable convolution (None: none); the block returns the output of
            ``separable2`` before its activation, and gives ``separable3`` the activated one.
        initialW (callable or None): the initializer of the convolutions' filters.

    Raises:
        ValueError: ``skip_type`` is unknown, or ``depthlist`` or an activation list does
            not have three entries.
    """

    def __init__(self, in_channels: int, depthlist: Sequence[int], stride: int = 1,
                 dilate: int = 1, skip_type: str = 'conv', activ_first: bool = True,
                 bn_kwargs: dict | None = None,
                 dw_activ_list: Sequence = (None, None, None),
                 pw_activ_list: Sequence = (F.relu, F.relu, None), initialW=None):
        if skip_type not in _SKIP_TYPES:
            raise ValueError(f'XceptionBlock: skip_type must be one of {_SKIP_TYPES}, but got '
                             f'{skip_type!r}')
        for name, value in (('depthlist', depthlist), ('dw_activ_list', dw_activ_list),
                            ('pw_activ_list', pw_activ_list)):
            if len(value) != 3:
                raise ValueError(f'XceptionBlock: {name} must have 3 entries, but got '
                                 f'{value!r}')
        super().__init__()
        self.skip_type = skip_type
        self.activ_first = activ_first
        self.separable2_activ = pw_activ_list[1]
        in_list = (in_channels, depthlist[0], depthlist[1])
        strides = (1, 1, stride)
        pw_activs = (pw_activ_list[0], None, pw_activ_list[2])
        with self.init_scope():
            for i in range(3):
                setattr(self, f'separable{i + 1}', SeparableConv2DBNActiv(
                    in_list[i], depthlist[i], 3, strides[i], dilate, dilate, nobias=True,
                    dw_initialW=initialW, pw_initialW=initialW, dw_activ=dw_activ_list[i],
                    pw_activ=pw_activs[i], bn_kwargs=bn_kwargs))
            if skip_type == 'conv':
                self.conv = Conv2DBNActiv(in_channels, depthlist[2], 1, stride,
                                          initialW=initialW, activ=None, bn_kwargs=bn_kwargs)

    def forward(self, x):
        """The block's output and ``separable2``'s.

        Args:
            x (Variable or array): float32 ``(B, C, H, W)``.

        Returns:
            tuple of Variable: float32 ``(B, depthlist[2], H', W')`` (``H' = ceil(H /
            stride)``), and ``(B, depthlist[1], H, W)``, the output of ``separable2`` before
            its activation.
        """
        h = F.relu(x) if self.activ_first else x
        separable2 = self.separable2(self.separable1(h))
        h = separable2 if self.separable2_activ is None else self.separable2_activ(separable2)
        h = self.separable3(h)
        if self.skip_type == 'conv':
            h = h + self.conv(x)
        elif self.skip_type == 'sum':
            h = h + x
        if not self.activ_first:
            h = F.relu(h)
        return h, separable2
