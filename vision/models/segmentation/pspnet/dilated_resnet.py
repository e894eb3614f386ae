"""The dilated ResNet of PSPNet (ChainerCV's ``DilatedResNet``): a ResNet whose last two stages
keep the resolution of the third and dilate their 3x3 convolutions instead (output stride 8)."""

from __future__ import annotations

import functools

import framework.functions as F
from framework.links import Conv2DBNActiv, PickableSequentialChain
from vision.models.classification.resnet.resblock import ResBlock


class DilatedResNet(PickableSequentialChain):
    """A dilated ResNet: ``conv1_1`` (3x3, stride 2), ``conv1_2``, ``conv1_3`` (3x3, the deep
    stem of PSPNet's authors in place of ResNet's 7x7), ``pool1`` (3x3 max pooling, stride
    2), ``res2``, ``res3`` (stride 2), ``res4`` (dilation 2) and ``res5`` (dilation 4), each
    a :class:`~vision.models.classification.resnet.ResBlock` striding on its 3x3
    convolutions.

    The output of ``res5`` is 1/8 of the input's size (rounded up at each stride); ``pick``
    is ``('res4', 'res5')``, the auxiliary branch's input and the features of the head.

    Args:
        n_layer (int): 50 or 101.
        initialW (callable or None): the initializer of the convolutions.
        base_channels (int): the channels of ``conv1_1``, which the others follow (64 in the
            published networks, whose ``res5`` has 2048).
    """

    _blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3)}

    def __init__(self, n_layer: int, initialW=None, base_channels: int = 64):
        if n_layer not in self._blocks:
            raise ValueError(f'DilatedResNet: n_layer must be one of {sorted(self._blocks)}, '
                             f'but got {n_layer!r}')
        super().__init__()
        base = base_channels
        kwargs = {'initialW': initialW, 'stride_first': False}
        n_blocks = self._blocks[n_layer]
        with self.init_scope():
            self.conv1_1 = Conv2DBNActiv(3, base, 3, 2, 1, initialW=initialW)
            self.conv1_2 = Conv2DBNActiv(base, base, 3, 1, 1, initialW=initialW)
            self.conv1_3 = Conv2DBNActiv(base, 2 * base, 3, 1, 1, initialW=initialW)
            self.pool1 = functools.partial(F.max_pooling_2d, ksize=3, stride=2, pad=1)
            self.res2 = ResBlock(n_blocks[0], 2 * base, base, 4 * base, 1, 1, **kwargs)
            self.res3 = ResBlock(n_blocks[1], 4 * base, 2 * base, 8 * base, 2, 1, **kwargs)
            self.res4 = ResBlock(n_blocks[2], 8 * base, 4 * base, 16 * base, 1, 2, **kwargs)
            self.res5 = ResBlock(n_blocks[3], 16 * base, 8 * base, 32 * base, 1, 4, **kwargs)
        self.pick = ('res4', 'res5')

    @property
    def channels(self) -> int:
        """The channels of ``res5``."""
        return self.res5.a.conv3.conv.out_channels
