"""The feature extractor of Light-Head R-CNN ResNet-101 (ChainerCV's ``ResNet101Extractor``)."""

from __future__ import annotations

import framework.functions as F
from framework import initializers
from framework.config import using_config
from framework.links import Chain, Conv2DBNActiv
from vision.models.classification.resnet.resblock import ResBlock


class ResNet101Extractor(Chain):
    """ResNet-101 of Kaiming He's layout (stride on each stage's first 1x1 convolution) whose
    last stage is dilated instead of strided: ``res4`` and ``res5`` are both at stride 16.

    ``conv1`` (7x7, stride 2, batch normalization, ReLU), 3x3 max pooling (stride 2, padding
    1), then ``res2`` to ``res5`` (3, 4, 23 and 3 bottlenecks; ``res5`` of stride 1 and
    dilation 2 in every bottleneck). The batch normalizations always use their statistics
    (``train`` off), and ``conv1`` and ``res2`` are frozen: no gradient flows into them, as in
    ChainerCV.

    Args:
        initialW (callable): the initializer of the convolutions (default: He normal).
    """

    def __init__(self, initialW=None):
        super().__init__()
        if initialW is None:
            initialW = initializers.HeNormal()
        kwargs = {'initialW': initialW, 'bn_kwargs': {'eps': 1e-5, 'decay': 0.997},
                  'stride_first': True}
        with self.init_scope():
            # (ChainerCV gives conv1 the default epsilon, 2e-5, and the blocks 1e-5.)
            self.conv1 = Conv2DBNActiv(3, 64, 7, 2, 3, nobias=True, initialW=initialW)
            self.res2 = ResBlock(3, 64, 64, 256, 1, **kwargs)
            self.res3 = ResBlock(4, 256, 128, 512, 2, **kwargs)
            self.res4 = ResBlock(23, 512, 256, 1024, 2, **kwargs)
            self.res5 = ResBlock(3, 1024, 512, 2048, 1, 2, **kwargs)

    def forward(self, x):
        """The features of the RPN and of the head.

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, prepared images.

        Returns:
            tuple of two Variables: ``res4`` ``(N, 1024, H', W')`` and ``res5``
            ``(N, 2048, H', W')``, float32, at stride 16.
        """
        with using_config('train', False):
            h = F.max_pooling_2d(self.conv1(x), 3, 2, 1, cover_all=False)
            h = self.res2(h)
            h.unchain()
            res4 = self.res4(self.res3(h))
            res5 = self.res5(res4)
        return res4, res5
