"""The decoder of DeepLab v3+ (ChainerCV's ``Decoder``)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Conv2DBNActiv, Convolution2D, SeparableConv2DBNActiv
from framework.links.link import Chain


class Decoder(Chain):
    """Refines the pooled features with the low-level ones: ``feature_proj`` (1x1, batch
    normalization, ReLU) reduces the low-level features; the pooled ones, resized to them
    (bilinear, corners aligned), are concatenated before them; two 3x3 separable convolutions
    (``conv1``, ``conv2``, ReLU after both parts) and ``conv_logits`` (1x1, with bias) give
    the class scores.

    Args:
        in_channels (int): the channels of the low-level features, and of the pooled ones.
        out_channels (int): the classes.
        proj_channels (int): the channels of ``feature_proj``.
        depth_channels (int): the channels of ``conv1`` and ``conv2``.
        bn_kwargs (dict or None): keyword arguments of the batch normalizations of ``conv1``
            and ``conv2`` (``feature_proj``'s keeps the defaults, as in ChainerCV, whose
            converted weights were made so).
        initialW (callable or None): the initializer of the convolutions' filters.
    """

    def __init__(self, in_channels: int, out_channels: int, proj_channels: int,
                 depth_channels: int, bn_kwargs: dict | None = None, initialW=None):
        super().__init__()
        separable = {'nobias': True, 'dw_initialW': initialW, 'pw_initialW': initialW,
                     'dw_activ': F.relu, 'pw_activ': F.relu, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            self.feature_proj = Conv2DBNActiv(in_channels, proj_channels, 1, initialW=initialW)
            self.conv1 = SeparableConv2DBNActiv(in_channels + proj_channels, depth_channels, 3,
                                                1, 1, 1, **separable)
            self.conv2 = SeparableConv2DBNActiv(depth_channels, depth_channels, 3, 1, 1, 1,
                                                **separable)
            self.conv_logits = Convolution2D(depth_channels, out_channels, 1, 1, 0,
                                             initialW=initialW)

    def forward(self, x, pool):
        """The class scores at the low-level features' resolution.

        Args:
            x (Variable): float32 ``(B, in_channels, H, W)``, the low-level features.
            pool (Variable): float32 ``(B, in_channels, h, w)``, the pooled features.

        Returns:
            Variable: float32 ``(B, out_channels, H, W)``, the logits.
        """
        x = self.feature_proj(x)
        pool = F.resize_images(pool, x.shape[2:])
        return self.conv_logits(self.conv2(self.conv1(F.concat((pool, x), axis=1))))
