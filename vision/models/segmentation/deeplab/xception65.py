"""Xception65, the extractor of DeepLab v3+ (ChainerCV's ``Xception65``)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework.links import Conv2DBNActiv
from framework.links.link import Chain
from vision.models.segmentation.deeplab.xception_block import XceptionBlock

_N_MIDDLE = 16


class Xception65(Chain):
    """Xception with 65 layers as DeepLab's authors modified it for segmentation
    (TensorFlow's ``research/deeplab``), output stride 8.

    ``entryflow_conv1`` (3x3, stride 2), ``entryflow_conv2`` (3x3), ``entryflow_block1`` and
    ``entryflow_block2`` (stride 2), ``entryflow_block3``, sixteen ``middleflow_block{i}``
    (dilation 2, the input added), ``exitflow_block1`` (dilation 2) and ``exitflow_block2``
    (dilation 4, no skip connection, ReLU after every part), each an :class:`XceptionBlock`.

    Args:
        bn_kwargs (dict or None): keyword arguments of every batch normalization (ChainerCV's
            weights need ``{'decay': 0.9997, 'eps': 1e-3}``).
        initialW (callable or None): the initializer of the convolutions' filters.

    Attributes:
        mean (numpy.ndarray): float32 ``(3, 1, 1)``, 127.5: the value of the pixels an image
            is padded with (zero once scaled to [-1, 1]).
    """

    mean = numpy.full((3, 1, 1), 127.5, numpy.float32)

    def __init__(self, bn_kwargs: dict | None = None, initialW=None):
        super().__init__()
        kwargs = {'bn_kwargs': bn_kwargs, 'initialW': initialW}
        relus = (F.relu, F.relu, F.relu)
        with self.init_scope():
            self.entryflow_conv1 = Conv2DBNActiv(3, 32, 3, 2, 1, **kwargs)
            self.entryflow_conv2 = Conv2DBNActiv(32, 64, 3, 1, 1, **kwargs)
            self.entryflow_block1 = XceptionBlock(64, (128, 128, 128), 2, **kwargs)
            self.entryflow_block2 = XceptionBlock(128, (256, 256, 256), 2, **kwargs)
            self.entryflow_block3 = XceptionBlock(256, (728, 728, 728), **kwargs)
            for i in range(1, _N_MIDDLE + 1):
                setattr(self, f'middleflow_block{i}', XceptionBlock(
                    728, (728, 728, 728), dilate=2, skip_type='sum', **kwargs))
            self.exitflow_block1 = XceptionBlock(728, (728, 1024, 1024), dilate=2, **kwargs)
            self.exitflow_block2 = XceptionBlock(
                1024, (1536, 1536, 2048), dilate=4, skip_type='none', activ_first=False,
                dw_activ_list=relus, pw_activ_list=relus, **kwargs)

    def forward(self, x):
        """The low-level and the high-level features.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, images scaled to [-1, 1].

        Returns:
            tuple of Variable: ``lowlevel``, float32 ``(B, 256, H / 4, W / 4)`` (the output
            of ``entryflow_block2``'s ``separable2``), and ``highlevel``, float32
            ``(B, 2048, H / 8, W / 8)``; each side rounded up at each stride.
        """
        h = self.entryflow_conv2(self.entryflow_conv1(x))
        h, _ = self.entryflow_block1(h)
        h, lowlevel = self.entryflow_block2(h)
        h, _ = self.entryflow_block3(h)
        for i in range(1, _N_MIDDLE + 1):
            h, _ = self[f'middleflow_block{i}'](h)
        h, _ = self.exitflow_block1(h)
        highlevel, _ = self.exitflow_block2(h)
        return lowlevel, highlevel
