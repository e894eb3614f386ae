"""Max pooling over 1, 2, 3 or any number of spatial axes."""

from __future__ import annotations

import numpy

from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import spatial_input
from framework.functions.pooling._arguments import pooling_windows
from framework.functions.pooling._window_adjoints import upsample
from framework.functions.pooling._windows import Windows
from framework.variable import Variable


class MaxPoolingND(FunctionNode):
    """The maximum of each window; the gradient goes to the first maximum of the window.

    The window indices of the maxima are found in forward, along with the maxima, when
    ``keep_indexes`` is set: the public functions set it when backward may run or the indices
    are returned, and backward needs nothing else. With ``return_indexes`` they are a second
    output (intp, no gradient), which a traced graph passes on to what reads them
    (:func:`~framework.functions.upsampling_2d`).
    """

    def __init__(self, windows: Windows, keep_indexes: bool, return_indexes: bool = False):
        self.windows = windows
        self.keep_indexes = keep_indexes or return_indexes
        self.return_indexes = return_indexes
        self.indexes = None

    def forward(self, inputs):
        x, = inputs
        y, self.indexes = self.windows.reduce_max(x, self.keep_indexes)
        if self.return_indexes:
            self.indexes = self.indexes.astype(numpy.intp, copy=False)
            return y, self.indexes
        return y,

    def backward(self, indexes, grad_outputs):
        return upsample(self.windows, grad_outputs[0], self.indexes),


def _max_pooling(fname, n_spatial, x, ksize, stride, pad, cover_all, return_indices):
    array = spatial_input(fname, x, n_spatial)
    windows = pooling_windows(fname, array.shape[2:], ksize, stride, pad, cover_all)
    differentiated = isinstance(x, Variable) and x.requires_grad and config.enable_backprop
    outputs = MaxPoolingND(windows, differentiated, bool(return_indices)).apply((x,))
    return (outputs[0], outputs[1].array) if return_indices else outputs[0]


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all: bool = True,
                   return_indices: bool = False) -> Variable | tuple:
    """N-dimensional spatial max pooling.

    Each output element is the maximum of a window of the input, per channel. The padding
    never wins (it is -inf). Where several elements of a window are maximal, the gradient goes
    to the first of them in row-major order of the window, as in Chainer.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of int): the window size ``(k_1, ..., k_n)``; an int ``k`` means
            ``(k, ..., k)``.
        stride (int, tuple of int or None): the window stride; None means ``ksize``.
        pad (int or tuple of int): the padding on both sides of each spatial axis.
        cover_all (bool): extend the input at the end so that every input element is in some
            window (the output may be one larger along an axis than without it).
        return_indices (bool): also return the window index of each maximum (for
            :func:`upsampling_2d`).

    Returns:
        Variable or tuple: the output ``(N, C, o_1, ..., o_n)`` of the dtype of ``x``, with
        ``o_i = (d_i + 2 p_i - k_i) // s_i + 1`` (``+ s_i - 1`` in the numerator with
        ``cover_all``). With ``return_indices``, the pair of the output and an integer array of
        the output's shape holding, for each output, the index of its maximum in the flattened
        (row-major) window, on the device of ``x``.
    """
    return _max_pooling('max_pooling_nd', None, x, ksize, stride, pad, cover_all,
                        return_indices)


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all: bool = True,
                   return_indices: bool = False) -> Variable | tuple:
    """1-dimensional spatial max pooling of ``x`` of shape ``(N, C, L)``.

    See :func:`max_pooling_nd` for the arguments and the result.
    """
    return _max_pooling('max_pooling_1d', 1, x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all: bool = True,
                   return_indices: bool = False) -> Variable | tuple:
    """Spatial max pooling of ``x`` of shape ``(N, C, H, W)``.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, H, W)``.
        ksize (int or pair of int): the window size; ``k`` means ``(k, k)``.
        stride (int, pair of int or None): the window stride; None means ``ksize``.
        pad (int or pair of int): the padding on both sides of each spatial axis.
        cover_all (bool): extend the input at the end so that every input element is in some
            window.
        return_indices (bool): also return the window index of each maximum (for
            :func:`upsampling_2d`).

    Returns:
        Variable or tuple: the output ``(N, C, H_out, W_out)`` of the dtype of ``x``; with
        ``return_indices``, the pair of the output and the integer array of the index of each
        maximum in its flattened window (see :func:`max_pooling_nd`).
    """
    return _max_pooling('max_pooling_2d', 2, x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all: bool = True,
                   return_indices: bool = False) -> Variable | tuple:
    """3-dimensional spatial max pooling of ``x`` of shape ``(N, C, D, H, W)``.

    See :func:`max_pooling_nd` for the arguments and the result.
    """
    return _max_pooling('max_pooling_3d', 3, x, ksize, stride, pad, cover_all, return_indices)

