"""Unpooling over 1, 2, 3 or any number of spatial axes: each value spread over its window."""

from __future__ import annotations

from framework.functions._inputs import spatial_input
from framework.functions.pooling._arguments import expanding_windows
from framework.functions.pooling._window_adjoints import Unpooling
from framework.variable import Variable


def _unpooling(fname, n_spatial, x, ksize, stride, pad, outsize, cover_all):
    array = spatial_input(fname, x, n_spatial)
    windows = expanding_windows(fname, array.shape[2:], ksize, stride, pad, outsize, cover_all)
    return Unpooling(windows).apply((x,))[0]


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """The inverse of N-dimensional pooling: each value copied to all elements of its window.

    Where windows overlap (stride smaller than ksize) the copies add up; the padding is cut
    off. This is :func:`average_pooling_nd`'s adjoint up to the factor ``k_1 * ... * k_n``.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of int): the window size; an int ``k`` means ``(k, ..., k)``.
        stride (int, tuple of int or None): the window stride; None means ``ksize``.
        pad (int or tuple of int): the padding of the pooling that this inverts.
        outsize (None or tuple of int): the spatial size of the output; None infers it (as
            Chainer's ``get_deconv_outsize``). Pooling an input of this size with these windows
            must give ``(d_1, ..., d_n)``.
        cover_all (bool): whether the pooling that this inverts used ``cover_all``.

    Returns:
        Variable: the output of shape ``(N, C, *outsize)`` and the dtype of ``x``.
    """
    return _unpooling('unpooling_nd', None, x, ksize, stride, pad, outsize, cover_all)


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Unpooling of ``x`` of shape ``(N, C, L)``; see :func:`unpooling_nd`."""
    return _unpooling('unpooling_1d', 1, x, ksize, stride, pad, outsize, cover_all)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """The inverse of 2-D pooling: each value copied to all elements of its window.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, H, W)``.
        ksize (int or pair of int): the window size; ``k`` means ``(k, k)``.
        stride (int, pair of int or None): the window stride; None means ``ksize``.
        pad (int or pair of int): the padding of the pooling that this inverts.
        outsize (None or pair of int): the output size ``(H_out, W_out)``; None infers it.
            Pooling an input of this size with these windows must give ``(H, W)``.
        cover_all (bool): whether the pooling that this inverts used ``cover_all``.

    Returns:
        Variable: the output of shape ``(N, C, H_out, W_out)`` and the dtype of ``x``.
    """
    return _unpooling('unpooling_2d', 2, x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Unpooling of ``x`` of shape ``(N, C, D, H, W)``; see :func:`unpooling_nd`."""
    return _unpooling('unpooling_3d', 3, x, ksize, stride, pad, outsize, cover_all)
