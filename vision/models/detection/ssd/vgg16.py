"""The VGG-16 of SSD (conv5 dilated, fc6 and fc7 as convolutions, ``norm4``) and its two
extractors, for 300x300 and 512x512 inputs."""

from __future__ import annotations

import numpy

import framework.functions as F
import framework.links as L
from framework import initializers
from framework.links.link import Chain
from vision.models.detection.ssd.normalize import Normalize

# (name, output channels) of the 3x3 convolutions of each stage before conv5; a 2x2 max
# pooling follows each stage.
_STAGES = ((('conv1_1', 64), ('conv1_2', 64)),
           (('conv2_1', 128), ('conv2_2', 128)),
           (('conv3_1', 256), ('conv3_2', 256), ('conv3_3', 256)),
           (('conv4_1', 512), ('conv4_2', 512), ('conv4_3', 512)))


class VGG16(Chain):
    """The VGG-16 of SSD (Liu et al., "SSD: Single Shot MultiBox Detector", ECCV 2016),
    ChainerCV's ``chainercv.links.model.ssd.VGG16``.

    It differs from the classifier VGG-16 (Simonyan and Zisserman, 2015): ``norm4``
    (:class:`Normalize`, scale 20) follows ``conv4_3``; ``conv5_*`` keep the resolution; the
    pooling after ``conv5_3`` is 3x3 with stride 1; ``fc6`` and ``fc7`` are the convolutions
    ``conv6`` (3x3, dilation 6) and ``conv7`` (1x1).

    Returns two feature maps: ``norm4`` of ``conv4_3`` and ``conv7``. The convolutions are
    initialized as Chainer's (LeCunNormal); a pretrained model replaces them.

    Args:
        base_channels (int): the channels of ``conv1_*``, which every layer follows: a layer
            of ``c`` channels in the paper has ``c * base_channels // 64`` (64, the paper's
            width, by default; 8 gives a network of an eighth the width and about a sixtieth
            of the computation, for small problems such as the synthetic shapes).

    Attributes:
        base_channels (int): see above.

    Raises:
        ValueError: ``base_channels`` is not a positive int.
    """

    def __init__(self, base_channels: int = 64):
        super().__init__()
        if (not isinstance(base_channels, (int, numpy.integer)) or isinstance(base_channels, bool)
                or base_channels < 1):
            raise ValueError(f'{type(self).__name__}: base_channels must be a positive int, '
                             f'but got {base_channels!r}')
        self.base_channels = int(base_channels)
        c512, c1024 = self.width(512), self.width(1024)
        in_channels = 3
        with self.init_scope():
            for stage in _STAGES:
                for name, out_channels in stage:
                    out_channels = self.width(out_channels)
                    setattr(self, name, L.Convolution2D(in_channels, out_channels, 3, pad=1))
                    in_channels = out_channels
            self.norm4 = Normalize(c512, initial=initializers.Constant(20))
            self.conv5_1 = L.DilatedConvolution2D(c512, c512, 3, pad=1)
            self.conv5_2 = L.DilatedConvolution2D(c512, c512, 3, pad=1)
            self.conv5_3 = L.DilatedConvolution2D(c512, c512, 3, pad=1)
            self.conv6 = L.DilatedConvolution2D(c512, c1024, 3, pad=6, dilate=6)
            self.conv7 = L.Convolution2D(c1024, c1024, 1)

    def width(self, channels: int) -> int:
        """The channels of a layer that has ``channels`` in the paper's network."""
        return channels * self.base_channels // 64

    def forward(self, x) -> list:
        """The feature maps of ``conv4_3`` (normalized) and ``conv7``.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, mean-subtracted RGB images.

        Returns:
            list of Variable: float32 ``(B, 512, H / 8, W / 8)`` and
            ``(B, 1024, H / 16, W / 16)`` (sizes rounded up at each pooling; the channels
            scaled by :meth:`width`).
        """
        h = x
        ys = []
        for i, stage in enumerate(_STAGES):
            for name, _ in stage:
                h = F.relu(self[name](h))
            if i == len(_STAGES) - 1:
                ys.append(self.norm4(h))
            h = F.max_pooling_2d(h, 2)
        for name in ('conv5_1', 'conv5_2', 'conv5_3'):
            h = F.relu(self[name](h))
        h = F.max_pooling_2d(h, 3, stride=1, pad=1)
        h = F.relu(self.conv6(h))
        ys.append(F.relu(self.conv7(h)))
        return ys


class _Extractor(VGG16):
    """:class:`VGG16` followed by extra pairs of convolutions ``conv<i>_1`` (1x1) and
    ``conv<i>_2``, each pair giving one more feature map.

    Subclasses set ``insize``, ``grids`` and ``_EXTRAS``: ``(i, out channels of conv<i>_1,
    out channels, ksize, stride, pad of conv<i>_2)``, the channels at the paper's width.

    Args:
        base_channels (int): the width (see :class:`VGG16`).
    """

    insize: int
    grids: tuple[int, ...]
    _EXTRAS: tuple[tuple[int, int, int, int, int, int], ...]

    def __init__(self, base_channels: int = 64):
        super().__init__(base_channels)
        init = {'initialW': initializers.LeCunUniform(), 'initial_bias': initializers.Zero()}
        in_channels = self.width(1024)
        with self.init_scope():
            for i, mid, out, ksize, stride, pad in self._EXTRAS:
                mid, out = self.width(mid), self.width(out)
                setattr(self, f'conv{i}_1', L.Convolution2D(in_channels, mid, 1, **init))
                setattr(self, f'conv{i}_2', L.Convolution2D(mid, out, ksize, stride=stride,
                                                            pad=pad, **init))
                in_channels = out

    @property
    def channels(self) -> tuple[int, ...]:
        """The channels of each feature map :meth:`forward` returns."""
        return tuple(self.width(c) for c in (512, 1024) + tuple(e[2] for e in self._EXTRAS))

    def forward(self, x) -> list:
        """The feature maps, one per entry of ``grids``.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``, mean-subtracted RGB
                images.

        Returns:
            list of Variable: float32 ``(B, C_k, grids[k], grids[k])``, with
            ``C = (512, 1024, 512, 256, 256, ...)`` at the paper's width (see
            :attr:`channels`).
        """
        ys = super().forward(x)
        for i, *_ in self._EXTRAS:
            h = F.relu(self[f'conv{i}_1'](ys[-1]))
            ys.append(F.relu(self[f'conv{i}_2'](h)))
        return ys


class VGG16Extractor300(_Extractor):
    """The feature extractor of :class:`~vision.models.SSD300`: :class:`VGG16` and
    ``conv8_*`` to ``conv11_*``, six feature maps of 38, 19, 10, 5, 3 and 1 pixels for a
    300x300 input (ChainerCV's ``VGG16Extractor300``).

    Attributes:
        insize (int): 300, the side of the input.
        grids (tuple of int): the sides of the feature maps.
    """

    insize = 300
    grids = (38, 19, 10, 5, 3, 1)
    _EXTRAS = ((8, 256, 512, 3, 2, 1), (9, 128, 256, 3, 2, 1),
               (10, 128, 256, 3, 1, 0), (11, 128, 256, 3, 1, 0))


class VGG16Extractor512(_Extractor):
    """The feature extractor of :class:`~vision.models.SSD512`: :class:`VGG16` and
    ``conv8_*`` to ``conv12_*``, seven feature maps of 64, 32, 16, 8, 4, 2 and 1 pixels for a
    512x512 input (ChainerCV's ``VGG16Extractor512``).

    Attributes:
        insize (int): 512, the side of the input.
        grids (tuple of int): the sides of the feature maps.
    """

    insize = 512
    grids = (64, 32, 16, 8, 4, 2, 1)
    _EXTRAS = ((8, 256, 512, 3, 2, 1), (9, 128, 256, 3, 2, 1), (10, 128, 256, 3, 2, 1),
               (11, 128, 256, 3, 2, 1), (12, 128, 256, 4, 1, 1))
