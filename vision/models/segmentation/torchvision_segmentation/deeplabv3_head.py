"""The head of DeepLabV3, torchvision's ``DeepLabHead``."""

from __future__ import annotations

from framework.links import Conv2DBNActiv, Convolution2D
from framework.links.link import Chain
from vision.models.segmentation.torchvision_segmentation.aspp import ASPP


class DeepLabV3Head(Chain):
    """torchvision's ``DeepLabHead``: ``aspp`` (:class:`ASPP`), ``conv`` (3x3 convolution,
    batch normalization, ReLU) and ``classifier`` (1x1 convolution with a bias), the class
    scores at the features' resolution.

    Args:
        in_channels (int): the channels of the features.
        n_class (int): the number of classes.
        channels (int): the channels of the ASPP and of ``conv`` (torchvision's 256).
        rates (tuple of int): the dilations of the ASPP (torchvision's 12, 24, 36).
        initialW (callable or None): the initializer of the convolutions.
        bn_kwargs (dict or None): keyword arguments of the batch normalizations.
    """

    def __init__(self, in_channels: int, n_class: int, channels: int = 256,
                 rates: tuple[int, ...] = (12, 24, 36), initialW=None,
                 bn_kwargs: dict | None = None):
        super().__init__()
        with self.init_scope():
            self.aspp = ASPP(in_channels, channels, rates, initialW, bn_kwargs)
            self.conv = Conv2DBNActiv(channels, channels, 3, 1, 1, nobias=True,
                                      initialW=initialW, bn_kwargs=bn_kwargs)
            self.classifier = Convolution2D(channels, n_class, 1, initialW=initialW)

    def forward(self, x):
        """The class scores.

        Args:
            x (Variable or array): float32 ``(B, in_channels, H, W)``.

        Returns:
            Variable: float32 ``(B, n_class, H, W)``, the logits.
        """
        return self.classifier(self.conv(self.aspp(x)))
