"""The head of FCN, torchvision's ``FCNHead`` (also the auxiliary head of its DeepLabV3)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Conv2DBNActiv, Convolution2D
from framework.links.link import Chain


class FCNHead(Chain):
    """torchvision's ``FCNHead``: ``conv`` (3x3 convolution to a quarter of the channels,
    batch normalization, ReLU), dropout, ``classifier`` (1x1 convolution with a bias).

    Args:
        in_channels (int): the channels of the features (a multiple of 4).
        n_class (int): the number of classes.
        initialW (callable or None): the initializer of the convolutions.
        bn_kwargs (dict or None): keyword arguments of the batch normalization.
        dropout_ratio (float): the dropout before the classifier, while training.
    """

    def __init__(self, in_channels: int, n_class: int, initialW=None,
                 bn_kwargs: dict | None = None, dropout_ratio: float = 0.1):
        super().__init__()
        self.dropout_ratio = dropout_ratio
        with self.init_scope():
            self.conv = Conv2DBNActiv(in_channels, in_channels // 4, 3, 1, 1, nobias=True,
                                      initialW=initialW, bn_kwargs=bn_kwargs)
            self.classifier = Convolution2D(in_channels // 4, n_class, 1, initialW=initialW)

    def forward(self, x):
        """The class scores.

        Args:
            x (Variable or array): float32 ``(B, in_channels, H, W)``.

        Returns:
            Variable: float32 ``(B, n_class, H, W)``, the logits.
        """
        return self.classifier(F.dropout(self.conv(x), self.dropout_ratio))
