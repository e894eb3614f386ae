"""R-Net: MTCNN's second stage, which rescores and refines 24x24 crops."""

from __future__ import annotations

import framework.functions as F
import framework.links as L
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain


def flatten_transposed(h):
    """Flattens ``(B, C, H, W)`` features in ``(W, H, C)`` order, as the original Caffe
    models (trained on transposed images) and facenet-pytorch's dense layers expect."""
    return F.reshape(F.transpose(h, (0, 3, 2, 1)), (h.shape[0], -1))


class RNet(Hybridizable, Chain):
    """The refinement network of MTCNN (Zhang et al., 2016).

    The layer names are those of facenet-pytorch's ``RNet``, so its state dict maps one to
    one (``dense4.weight`` is ``dense4/W``).

    Args:
        initialW: the initializer of the weights; None for LeCunNormal.
    """

    def __init__(self, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 28, 3, initialW=initialW)
            self.prelu1 = L.PReLU((28,))
            self.conv2 = L.Convolution2D(28, 48, 3, initialW=initialW)
            self.prelu2 = L.PReLU((48,))
            self.conv3 = L.Convolution2D(48, 64, 2, initialW=initialW)
            self.prelu3 = L.PReLU((64,))
            self.dense4 = L.Linear(576, 128, initialW=initialW)
            self.prelu4 = L.PReLU((128,))
            self.dense5_1 = L.Linear(128, 2, initialW=initialW)
            self.dense5_2 = L.Linear(128, 4, initialW=initialW)

    def forward(self, x):
        """Scores and box offsets of face candidates.

        Args:
            x (Variable or array): float32 crops ``(R, 3, 24, 24)``, normalised as for
                :class:`PNet`.

        Returns:
            tuple: ``(offset, prob)``: float32 ``(R, 4)`` offsets
            ``(dx_min, dy_min, dx_max, dy_max)`` and float32 ``(R, 2)`` probabilities
            (no face, face).
        """
        h = self.prelu1(self.conv1(x))
        h = F.max_pooling_2d(h, 3, 2, cover_all=True)
        h = self.prelu2(self.conv2(h))
        h = F.max_pooling_2d(h, 3, 2, cover_all=True)
        h = self.prelu3(self.conv3(h))
        h = self.prelu4(self.dense4(flatten_transposed(h)))
        return self.dense5_2(h), F.softmax(self.dense5_1(h), axis=1)
