"""The layers Darknet's networks are made of, as ChainerCV writes them: convolutions with batch
normalization and leaky ReLU (slope 0.1), Darknet's max pooling, YOLOv2's reorganisation and
YOLOv3's upsampling."""

from __future__ import annotations

import framework.functions as F
from framework.links import Conv2DBNActiv


def leaky_relu(x):
    """Darknet's activation: :func:`framework.functions.leaky_relu` of slope 0.1."""
    return F.leaky_relu(x, slope=0.1)


def darknet_conv(in_channels: int, out_channels: int, ksize: int, stride: int = 1
                 ) -> Conv2DBNActiv:
    """A convolution without bias, a batch normalization and :func:`leaky_relu`, padded to
    keep the size (``ksize // 2``): ChainerCV's ``Conv2DBNActiv(out_channels, ksize,
    pad=ksize // 2, activ=_leaky_relu)`` with its input channels given."""
    return Conv2DBNActiv(in_channels, out_channels, ksize, stride=stride, pad=ksize // 2,
                         activ=leaky_relu)


def max_pool(x, ksize: int, stride: int | None = None):
    """Darknet's max pooling: windows of ``ksize`` every ``stride`` (``ksize`` by default),
    the input padded at the bottom and right by ``ksize - stride`` (so a pooling of stride 1
    keeps the size).

    Args:
        x (Variable or array): ``(B, C, H, W)``.
        ksize (int): the side of the windows.
        stride (int or None): their step.

    Returns:
        Variable: ``(B, C, ceil(H / stride), ceil(W / stride))`` for ``ksize`` 2.
    """
    stride = ksize if stride is None else stride
    h = F.max_pooling_2d(x, ksize, stride=stride, pad=ksize - stride)
    if ksize > stride:
        h = h[:, :, ksize - stride:, ksize - stride:]
    return h


def reorg(x):
    """YOLOv2's passthrough layer (Darknet's ``reorg``) as ChainerCV computes it: a reshape
    and a transpose that trade a halving of the height and width for four times the
    channels.

    Args:
        x (Variable or array): ``(B, C, H, W)``, ``C`` a multiple of 4, ``H`` and ``W`` even.

    Returns:
        Variable: ``(B, 4 C, H / 2, W / 2)``.
    """
    n, c, h, w = x.shape
    x = F.reshape(x, (n, c // 4, h, 2, w, 2))
    x = F.transpose(x, (0, 3, 5, 1, 2, 4))
    return F.reshape(x, (n, c * 4, h // 2, w // 2))


def upsample(x):
    """Nearest-neighbour upsampling by 2: ``(B, C, H, W)`` to ``(B, C, 2 H, 2 W)``."""
    return F.unpooling_2d(x, 2, cover_all=False)
