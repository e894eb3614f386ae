"""The atrous spatial pyramid pooling of DeepLab v3+, with separable convolutions (ChainerCV's
``SeparableASPP``)."""

from __future__ import annotations

from collections.abc import Sequence

import framework.functions as F
from framework.links import Conv2DBNActiv, SeparableConv2DBNActiv
from framework.links.link import Chain


class SeparableASPP(Chain):
    """Five branches concatenated and projected: the features averaged over the image through
    a 1x1 convolution (``image_pooling_conv``), broadcast back to every position; a 1x1
    convolution (``conv1x1``); three 3x3 separable convolutions dilated by ``dilate_list``
    (``atrous1``, ``atrous2``, ``atrous3``, ReLU after both parts); then ``proj`` (1x1) and a
    dropout of 0.5 (in training only). Every convolution is followed by batch normalization
    and ReLU.

    Args:
        in_channels (int): the channels of the input.
        out_channels (int): the channels of every branch and of the output.
        dilate_list (sequence of int): the three dilations (ChainerCV's 12, 24, 36 for output
            stride 8).
        bn_kwargs (dict or None): keyword arguments of every batch normalization.
        initialW (callable or None): the initializer of the convolutions' filters.

    Raises:
        ValueError: ``dilate_list`` does not have three entries.
    """

    def __init__(self, in_channels: int, out_channels: int,
                 dilate_list: Sequence[int] = (12, 24, 36), bn_kwargs: dict | None = None,
                 initialW=None):
        if len(dilate_list) != 3:
            raise ValueError(f'SeparableASPP: dilate_list must have 3 entries, but got '
                             f'{dilate_list!r}')
        super().__init__()
        kwargs = {'initialW': initialW, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            self.image_pooling_conv = Conv2DBNActiv(in_channels, out_channels, 1, **kwargs)
            self.conv1x1 = Conv2DBNActiv(in_channels, out_channels, 1, **kwargs)
            for i, dilate in enumerate(dilate_list, 1):
                setattr(self, f'atrous{i}', SeparableConv2DBNActiv(
                    in_channels, out_channels, 3, 1, dilate, dilate, nobias=True,
                    dw_initialW=initialW, pw_initialW=initialW, dw_activ=F.relu,
                    pw_activ=F.relu, bn_kwargs=bn_kwargs))
            self.proj = Conv2DBNActiv(5 * out_channels, out_channels, 1, **kwargs)

    def image_pooling(self, x):
        """The image-level branch: ``image_pooling_conv`` of the features averaged over the
        positions, at every position.

        Args:
            x (Variable): float32 ``(B, C, H, W)``.

        Returns:
            Variable: float32 ``(B, out_channels, H, W)``, equal over ``H`` and ``W``.
        """
        h = self.image_pooling_conv(F.average(x, axis=(2, 3), keepdims=True))
        return F.broadcast_to(h, h.shape[:2] + x.shape[2:])

    def forward(self, x):
        """The pooled features.

        Args:
            x (Variable): float32 ``(B, in_channels, H, W)``.

        Returns:
            Variable: float32 ``(B, out_channels, H, W)``.
        """
        branches = [self.image_pooling(x), self.conv1x1(x), self.atrous1(x), self.atrous2(x),
                    self.atrous3(x)]
        return F.dropout(self.proj(F.concat(branches, axis=1)))
