"""Multibox: SSD's head, box offsets and class scores from each feature map."""

from __future__ import annotations

from collections.abc import Sequence

import framework.functions as F
import framework.links as L
from framework import initializers
from framework.links.link import Chain, ChainList


class Multibox(Chain):
    """The head of SSD (Liu et al., 2016), ChainerCV's ``Multibox``: a 3x3 convolution per
    feature map for the offsets (``loc``) and one for the class scores (``conf``) of its
    default boxes.

    A feature map ``k`` has ``2 + 2 * len(aspect_ratios[k])`` default boxes per pixel.

    Args:
        n_class (int): the number of classes, background included.
        aspect_ratios (sequence of sequence of int): the aspect ratios (beyond 1) of the
            default boxes of each feature map, e.g. ``((2,), (2, 3), ...)``.
        initialW: the initializer of the filters (default: LeCunUniform, Caffe's "xavier").
        initial_bias: the initializer of the biases (default: zero).
        in_channels (sequence of int or None): the channels of each feature map; None to
            infer them at the first call.

    Attributes:
        n_class (int): see above.
        aspect_ratios (tuple of tuple of int): see above.
        loc (ChainList): the offset convolutions, one per feature map.
        conf (ChainList): the score convolutions, one per feature map.
    """

    def __init__(self, n_class: int, aspect_ratios: Sequence[Sequence[int]], initialW=None,
                 initial_bias=None, in_channels: Sequence[int] | None = None):
        super().__init__()
        if not isinstance(n_class, int) or n_class < 1:
            raise ValueError(f'Multibox: n_class must be a positive int (background included), '
                             f'but got {n_class!r}')
        self.n_class = n_class
        self.aspect_ratios = tuple(tuple(ar) for ar in aspect_ratios)
        if in_channels is None:
            in_channels = (None,) * len(self.aspect_ratios)
        elif len(in_channels) != len(self.aspect_ratios):
            raise ValueError(f'Multibox: in_channels must have one entry per feature map '
                             f'({len(self.aspect_ratios)}, as aspect_ratios), but got '
                             f'{len(in_channels)}')
        init = {'initialW': initialW if initialW is not None else initializers.LeCunUniform(),
                'initial_bias': initial_bias if initial_bias is not None
                else initializers.Zero()}
        with self.init_scope():
            self.loc = ChainList()
            self.conf = ChainList()
        for ar, channels in zip(self.aspect_ratios, in_channels):
            n = (len(ar) + 1) * 2
            self.loc.add_link(L.Convolution2D(channels, n * 4, 3, pad=1, **init))
            self.conf.add_link(L.Convolution2D(channels, n * n_class, 3, pad=1, **init))

    def forward(self, xs) -> tuple:
        """The offsets and scores of every default box.

        Args:
            xs (sequence of Variable): the feature maps ``(B, C_k, H_k, W_k)``, one per entry
                of ``aspect_ratios``.

        Returns:
            tuple of two Variables: ``mb_locs``, float32 ``(B, K, 4)``, and ``mb_confs``,
            float32 ``(B, K, n_class)``, where :math:`K` is the number of default boxes,
            ordered by feature map, then row, column and box of the pixel.
        """
        if len(xs) != len(self.aspect_ratios):
            raise ValueError(f'Multibox: expected {len(self.aspect_ratios)} feature maps (one '
                             f'per entry of aspect_ratios), but got {len(xs)}')
        locs, confs = [], []
        for x, loc, conf in zip(xs, self.loc, self.conf):
            y = F.transpose(loc(x), (0, 2, 3, 1))
            locs.append(F.reshape(y, (y.shape[0], -1, 4)))
            y = F.transpose(conf(x), (0, 2, 3, 1))
            confs.append(F.reshape(y, (y.shape[0], -1, self.n_class)))
        return F.concat(locs, axis=1), F.concat(confs, axis=1)
