"""The extractor of FCIS ResNet-101 (ChainerCV's ``ResNet101Extractor``)."""

from __future__ import annotations

import framework.functions as F
from framework import initializers
from framework.config import using_config
from framework.links import Chain, Conv2DBNActiv
from vision.models.classification.resnet.resblock import ResBlock


class ResNet101Extractor(Chain):
    """ResNet-101 (arch ``'he'``: strides on the first 1x1 convolutions) up to ``res5``, whose
    stage dilates its 3x3 convolutions by 2 instead of striding, so that ``res4`` and ``res5``
    have the same stride, 16.

    The batch normalizations always use their running statistics (the extractor runs with
    ``train`` off even in training), and no gradient flows back through ``conv1`` and
    ``res2``: those layers stay as the weights they were loaded with.

    Args:
        initialW (callable): the initializer of the kernels (default: He normal).
        base_channels (int): the channels of ``conv1``, which the stages follow (``res4``
            has ``16 * base_channels``, ``res5`` ``32 * base_channels``): 64, the width of
            ResNet-101 and of the published weights, by default; smaller ones build a small
            model for tests.
    """

    def __init__(self, initialW=None, base_channels: int = 64):
        super().__init__()
        if initialW is None:
            initialW = initializers.HeNormal()
        kwargs = {'initialW': initialW, 'bn_kwargs': {'eps': 1e-5}, 'stride_first': True}
        b = base_channels
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(3, b, 7, 2, 3, nobias=True, initialW=initialW)
            self.res2 = ResBlock(3, b, b, 4 * b, 1, **kwargs)
            self.res3 = ResBlock(4, 4 * b, 2 * b, 8 * b, 2, **kwargs)
            self.res4 = ResBlock(23, 8 * b, 4 * b, 16 * b, 2, **kwargs)
            self.res5 = ResBlock(3, 16 * b, 8 * b, 32 * b, 1, 2, **kwargs)

    def forward(self, x):
        """The features of the RPN and of the head.

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, prepared images.

        Returns:
            tuple of two Variables: ``res4`` ``(N, 1024, H', W')`` and ``res5``
            ``(N, 2048, H', W')`` (at ``base_channels`` 64), float32, where ``H'`` and
            ``W'`` are about ``H / 16`` and ``W / 16``.
        """
        with using_config('train', False):
            h = F.max_pooling_2d(self.conv1(x), ksize=3, stride=2)
            h = self.res2(h)
            h.unchain_backward()
            h = self.res3(h)
            res4 = self.res4(h)
            res5 = self.res5(res4)
        return res4, res5
