"""Conv2DBNActiv: a convolution, a batch normalization and an activation (ChainerCV's)."""

from __future__ import annotations

from framework import backend
from framework.config import config
from framework.functions.activation.relu import relu
from framework.functions.connection.convolution_2d import convolution_2d
from framework.functions.normalization.batch_normalization_folding import (
    fold_batch_normalization,
)
from framework.links.connection._weights import shift_lazy_arguments
from framework.links.connection.convolution_2d import Convolution2D
from framework.links.link import Chain
from framework.links.normalization.batch_normalization import BatchNormalization


class Conv2DBNActiv(Chain):
    """:class:`Convolution2D` (the child ``conv``, without bias by default), then
    :class:`BatchNormalization` (the child ``bn``), then an activation.

    In inference without backpropagation (``train`` off, as ``predict`` runs), the batch
    normalization is folded into the filters and the bias where that costs less than
    normalizing the output (see :meth:`_folds`): the same result, up to rounding.

    The arguments are those of :class:`Convolution2D` (with the same short forms), and:

    Args:
        activ (callable or None): the activation; None for none.
        bn_kwargs (dict): keyword arguments of the :class:`BatchNormalization`.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 groups: int = 1, nobias: bool = True, initialW=None, initial_bias=None,
                 activ=relu, bn_kwargs=None):
        super().__init__()
        in_channels, out_channels, ksize = shift_lazy_arguments(in_channels, out_channels,
                                                                ksize)
        self.activ = activ
        with self.init_scope():
            self.conv = Convolution2D(in_channels, out_channels, ksize, stride, pad, nobias,
                                      initialW, initial_bias, dilate=dilate, groups=groups)
            self.bn = BatchNormalization(out_channels, **(bn_kwargs or {}))

    def forward(self, x):
        if self._folds(x):
            h = self._folded_forward(x)
        else:
            h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)

    def _folds(self, x) -> bool:
        """Whether to fold the batch normalization into the convolution: in inference without
        backpropagation (as ``predict`` runs), when the output has more positions than a
        filter has weights, so that scaling the filters costs less than the normalization's
        passes over the output."""
        if (config.train or config.enable_backprop or self.bn.axis is not None
                or len(x.shape) != 4):
            return False
        conv = self.conv
        if conv.W.array is None or self.bn.avg_mean is None:
            return False
        positions = x.shape[0] * x.shape[2] * x.shape[3] // (conv.stride[0] * conv.stride[1])
        return positions >= conv.W.array[0].size

    def _folded_forward(self, x):
        """``bn(conv(x))`` as one convolution, the fixed statistics folded into the filters
        and the bias (:func:`fold_batch_normalization`)."""
        conv, bn = self.conv, self.bn
        xp = backend.get_array_module(conv.W.array)
        shape, dtype = bn.avg_mean.shape, bn.avg_mean.dtype
        gamma = xp.ones(shape, dtype) if bn.gamma is None else bn.gamma.array
        beta = xp.zeros(shape, dtype) if bn.beta is None else bn.beta.array
        W, b = fold_batch_normalization(conv.W.array, None if conv.b is None else conv.b.array,
                                        gamma, beta, bn.avg_mean, bn.avg_var, bn.eps)
        return convolution_2d(x, W, b, conv.stride, conv.pad, dilate=conv.dilate,
                              groups=conv.groups)
