"""Atrous spatial pyramid pooling, torchvision's ``ASPP`` (of its DeepLabV3)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Conv2DBNActiv
from framework.links.link import Chain


class ASPP(Chain):
    """Atrous spatial pyramid pooling (Chen et al., "Rethinking Atrous Convolution for
    Semantic Image Segmentation", 2017), as torchvision's ``ASPP``.

    Parallel branches of the features, each a convolution, batch normalization and ReLU:
    ``conv0`` (1x1), ``conv1``... (3x3, dilated and padded by each of ``rates``) and
    ``pool_conv`` (1x1, on the features averaged over the image, then spread back over it);
    concatenated and projected by ``project`` (1x1, batch normalization, ReLU), then dropout.

    Args:
        in_channels (int): the channels of the features.
        out_channels (int): the channels of each branch and of the output.
        rates (tuple of int): the dilations of the 3x3 branches.
        initialW (callable or None): the initializer of the convolutions.
        bn_kwargs (dict or None): keyword arguments of the batch normalizations.
        dropout_ratio (float): the dropout after the projection, while training.
    """

    def __init__(self, in_channels: int, out_channels: int = 256,
                 rates: tuple[int, ...] = (12, 24, 36), initialW=None,
                 bn_kwargs: dict | None = None, dropout_ratio: float = 0.5):
        super().__init__()
        self.rates = tuple(rates)
        self.dropout_ratio = dropout_ratio
        kwargs = {'nobias': True, 'initialW': initialW, 'bn_kwargs': bn_kwargs}
        with self.init_scope():
            self.conv0 = Conv2DBNActiv(in_channels, out_channels, 1, **kwargs)
            for i, rate in enumerate(self.rates, 1):
                setattr(self, f'conv{i}', Conv2DBNActiv(in_channels, out_channels, 3, 1, rate,
                                                        rate, **kwargs))
            self.pool_conv = Conv2DBNActiv(in_channels, out_channels, 1, **kwargs)
            self.project = Conv2DBNActiv((len(self.rates) + 2) * out_channels, out_channels, 1,
                                         **kwargs)

    def forward(self, x):
        """Pools the features at every rate.

        Args:
            x (Variable or array): float32 ``(B, in_channels, H, W)``.

        Returns:
            Variable: float32 ``(B, out_channels, H, W)``.
        """
        branches = [self[f'conv{i}'](x) for i in range(len(self.rates) + 1)]
        pooled = self.pool_conv(F.mean(x, axis=(2, 3), keepdims=True))
        # torchvision resizes the 1x1 map bilinearly, which repeats it
        branches.append(F.broadcast_to(pooled, branches[0].shape))
        return F.dropout(self.project(F.concat(branches, axis=1)), self.dropout_ratio)
