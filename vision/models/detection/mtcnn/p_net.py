"""P-Net: MTCNN's first stage, a fully convolutional face / no-face scanner."""

from __future__ import annotations

import framework.functions as F
import framework.links as L
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain


class PNet(Hybridizable, Chain):
    """The proposal network of MTCNN (Zhang et al., 2016).

    A fully convolutional net: every output position scores the 12x12 window of the input at
    twice its coordinates. The layer names are those of facenet-pytorch's ``PNet``, so its
    state dict maps one to one (``conv1.weight`` is ``conv1/W``).

    Args:
        initialW: the initializer of the filters; None for LeCunNormal.
    """

    # An image's pyramid gives a signature per level and band height: about 15 for a
    # 1920x1080 photo, which must all keep their graphs for a hybridized predict to repeat.
    max_graphs = 32

    def __init__(self, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 10, 3, initialW=initialW)
            self.prelu1 = L.PReLU((10,))
            self.conv2 = L.Convolution2D(10, 16, 3, initialW=initialW)
            self.prelu2 = L.PReLU((16,))
            self.conv3 = L.Convolution2D(16, 32, 3, initialW=initialW)
            self.prelu3 = L.PReLU((32,))
            self.conv4_1 = L.Convolution2D(32, 2, 1, initialW=initialW)
            self.conv4_2 = L.Convolution2D(32, 4, 1, initialW=initialW)

    def forward(self, x):
        """Scores and box offsets of every 12x12 window.

        Args:
            x (Variable or array): float32 images ``(B, 3, H, W)``, RGB, normalised to
                ``(value - 127.5) / 128``; ``H, W >= 12``.

        Returns:
            tuple: ``(offset, prob)``: float32 ``(B, 4, H', W')`` offsets
            ``(dx_min, dy_min, dx_max, dy_max)`` relative to the window's size, and float32
            ``(B, 2, H', W')`` probabilities (no face, face), with
            ``H' = ceil((H - 2) / 2) - 4`` and ``W'`` alike.
        """
        h = self.prelu1(self.conv1(x))
        h = F.max_pooling_2d(h, 2, 2, cover_all=True)
        h = self.prelu2(self.conv2(h))
        h = self.prelu3(self.conv3(h))
        return self.conv4_2(h), F.softmax(self.conv4_1(h), axis=1)
