"""O-Net: MTCNN's last stage, which rescores 48x48 crops and places the five landmarks."""

from __future__ import annotations

import framework.functions as F
import framework.links as L
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from vision.models.detection.mtcnn.r_net import flatten_transposed


class ONet(Hybridizable, Chain):
    """The output network of MTCNN (Zhang et al., 2016).

    The layer names are those of facenet-pytorch's ``ONet``, so its state dict maps one to
    one (``dense6_3.bias`` is ``dense6_3/b``).

    Args:
        initialW: the initializer of the weights; None for LeCunNormal.
    """

    def __init__(self, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 32, 3, initialW=initialW)
            self.prelu1 = L.PReLU((32,))
            self.conv2 = L.Convolution2D(32, 64, 3, initialW=initialW)
            self.prelu2 = L.PReLU((64,))
            self.conv3 = L.Convolution2D(64, 64, 3, initialW=initialW)
            self.prelu3 = L.PReLU((64,))
            self.conv4 = L.Convolution2D(64, 128, 2, initialW=initialW)
            self.prelu4 = L.PReLU((128,))
            self.dense5 = L.Linear(1152, 256, initialW=initialW)
            self.prelu5 = L.PReLU((256,))
            self.dense6_1 = L.Linear(256, 2, initialW=initialW)
            self.dense6_2 = L.Linear(256, 4, initialW=initialW)
            self.dense6_3 = L.Linear(256, 10, initialW=initialW)

    def forward(self, x):
        """Scores, box offsets and landmarks of face candidates.

        Args:
            x (Variable or array): float32 crops ``(R, 3, 48, 48)``, normalised as for
                :class:`PNet`.

        Returns:
            tuple: ``(offset, landmark, prob)``: float32 ``(R, 4)`` offsets
            ``(dx_min, dy_min, dx_max, dy_max)``; float32 ``(R, 10)`` landmarks relative to
            the crop, the five ``x`` then the five ``y`` (eyes, nose, mouth corners); float32
            ``(R, 2)`` probabilities (no face, face).
        """
        h = self.prelu1(self.conv1(x))
        h = F.max_pooling_2d(h, 3, 2, cover_all=True)
        h = self.prelu2(self.conv2(h))
        h = F.max_pooling_2d(h, 3, 2, cover_all=True)
        h = self.prelu3(self.conv3(h))
        h = F.max_pooling_2d(h, 2, 2, cover_all=True)
        h = self.prelu4(self.conv4(h))
        h = self.prelu5(self.dense5(flatten_transposed(h)))
        return self.dense6_2(h), self.dense6_3(h), F.softmax(self.dense6_1(h), axis=1)
