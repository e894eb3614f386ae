"""Upsampling with the indices of max pooling: each value put back where its maximum was."""

from __future__ import annotations

from framework import backend
from framework.functions._inputs import array_input, spatial_input
from framework.functions.pooling._arguments import expanding_windows
from framework.functions.pooling._window_adjoints import upsample
from framework.variable import Variable


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all: bool = True) -> Variable:
    """Upsampling using the indices of a max pooling.

    Each value of ``x`` is added to the output at the position of its window given by
    ``indexes`` (as returned by ``max_pooling_2d(..., return_indices=True)``); the rest of the
    output is zero. This is the adjoint of taking, from each window, the element at that index.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, H, W)``.
        indexes (array): integer array of the shape of ``x`` on its device: the index of each
            value's position in its flattened (row-major) window, in ``[0, k_h * k_w)``.
        ksize (int or pair of int): the window size of the max pooling.
        stride (int, pair of int or None): its stride; None means ``ksize``.
        pad (int or pair of int): its padding.
        outsize (None or pair of int): the output size ``(H_out, W_out)`` (the max pooling's
            input size); None infers it. Pooling an input of this size must give ``(H, W)``.
        cover_all (bool): whether the max pooling used ``cover_all``.

    Returns:
        Variable: the output of shape ``(N, C, H_out, W_out)`` and the dtype of ``x``.
    """
    fname = 'upsampling_2d'
    array = spatial_input(fname, x, 2)
    indexes = array_input(fname, 'indexes', indexes, 'iu')
    if indexes.shape != array.shape:
        raise ValueError(f'{fname}: indexes must have the shape of x {array.shape}, but got '
                         f'shape {indexes.shape}')
    backend.same_device(fname, (array, indexes), ('x', 'indexes'))
    windows = expanding_windows(fname, array.shape[2:], ksize, stride, pad, outsize, cover_all)
    return upsample(windows, x, indexes)
