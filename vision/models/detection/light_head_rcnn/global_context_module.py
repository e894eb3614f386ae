"""The global context module of Light-Head R-CNN, its large separable convolution (ChainerCV's
``GlobalContextModule``)."""

from __future__ import annotations

import framework.functions as F
from framework.links import Chain, Convolution2D


class GlobalContextModule(Chain):
    """A large separable convolution (Li et al., "Light-Head R-CNN: In Defense of Two-Stage
    Object Detector", 2017): a thin feature map with a ``ksize x ksize`` receptive field at the
    cost of two pairs of one-dimensional convolutions.

    One branch convolves along the columns (``col_max``, ``ksize x 1``) then along the rows
    (``col``, ``1 x ksize``), the other the other way round (``row_max``, ``1 x ksize``, then
    ``row``, ``ksize x 1``); the output is the ReLU of their sum. Each convolution is padded to
    keep the size of the map.

    Args:
        in_channels (int): the channels of the input.
        mid_channels (int): the channels between the two convolutions of each branch.
        out_channels (int): the channels of the output.
        ksize (int): the length of the one-dimensional kernels, odd.
        initialW (callable): the initializer of the kernels.

    Raises:
        ValueError: ``ksize`` is not an odd positive int.
    """

    def __init__(self, in_channels: int, mid_channels: int, out_channels: int, ksize: int,
                 initialW=None):
        super().__init__()
        if isinstance(ksize, bool) or not isinstance(ksize, int) or ksize < 1 \
                or ksize % 2 == 0:
            raise ValueError(f'GlobalContextModule: ksize must be an odd positive int (the '
                             f'output keeps the size of the input), but got {ksize!r}')
        pad = (ksize - 1) // 2
        column, row = (ksize, 1), (1, ksize)
        with self.init_scope():
            self.col_max = Convolution2D(in_channels, mid_channels, column, 1, (pad, 0),
                                         initialW=initialW)
            self.col = Convolution2D(mid_channels, out_channels, row, 1, (0, pad),
                                     initialW=initialW)
            self.row_max = Convolution2D(in_channels, mid_channels, row, 1, (0, pad),
                                         initialW=initialW)
            self.row = Convolution2D(mid_channels, out_channels, column, 1, (pad, 0),
                                     initialW=initialW)

    def forward(self, x):
        """The context features.

        Args:
            x (Variable or array): ``(N, in_channels, H, W)`` float32.

        Returns:
            Variable: ``(N, out_channels, H, W)`` float32, non-negative.
        """
        return F.relu(self.col(self.col_max(x)) + self.row(self.row_max(x)))
