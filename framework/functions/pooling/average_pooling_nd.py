"""Average pooling over 1, 2, 3 or any number of spatial axes."""

from __future__ import annotations

from framework.functions._inputs import spatial_input
from framework.functions.pooling._arguments import pooling_windows
from framework.functions.pooling._window_adjoints import AveragePooling
from framework.variable import Variable


def _average_pooling(fname, n_spatial, x, ksize, stride, pad, pad_value):
    if not (pad_value is None or pad_value == 0):
        raise ValueError(f'{fname}: pad_value must be 0 (the padding counts in the average) or '
                         f'None (it does not), but got {pad_value!r}')
    array = spatial_input(fname, x, n_spatial)
    windows = pooling_windows(fname, array.shape[2:], ksize, stride, pad, cover_all=False)
    divisor = None if pad_value is None else windows.n_offsets
    return AveragePooling(windows, divisor).apply((x,))[0]


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """N-dimensional spatial average pooling.

    Each output element is the mean of a window of the input, per channel. As in Chainer,
    the windows do not cover the end of the input that the stride skips over (no
    ``cover_all``).

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, d_1, ..., d_n)``.
        ksize (int or tuple of int): the window size ``(k_1, ..., k_n)``; an int ``k`` means
            ``(k, ..., k)``.
        stride (int, tuple of int or None): the window stride; None means ``ksize``.
        pad (int or tuple of int): the padding on both sides of each spatial axis.
        pad_value (0 or None): 0 to average over the whole window, the padding counting as
            zeros (biased towards zero at the borders); None to average over the input elements
            of the window only.

    Returns:
        Variable: the output ``(N, C, o_1, ..., o_n)`` of the dtype of ``x``, with
        ``o_i = (d_i + 2 p_i - k_i) // s_i + 1``.
    """
    return _average_pooling('average_pooling_nd', None, x, ksize, stride, pad, pad_value)


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """1-dimensional spatial average pooling of ``x`` of shape ``(N, C, L)``.

    See :func:`average_pooling_nd` for the arguments and the result.
    """
    return _average_pooling('average_pooling_1d', 1, x, ksize, stride, pad, pad_value)


def average_pooling_2d(x, ksize, stride=None, pad=0) -> Variable:
    """Spatial average pooling of ``x`` of shape ``(N, C, H, W)``.

    The padding counts as zeros in the average, as in Chainer; use :func:`average_pooling_nd`
    with ``pad_value=None`` to average over the input elements only.

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, H, W)``.
        ksize (int or pair of int): the window size; ``k`` means ``(k, k)``.
        stride (int, pair of int or None): the window stride; None means ``ksize``.
        pad (int or pair of int): the padding on both sides of each spatial axis.

    Returns:
        Variable: the output ``(N, C, H_out, W_out)`` of the dtype of ``x``, with
        ``H_out = (H + 2 p_h - k_h) // s_h + 1`` and likewise ``W_out``.
    """
    return _average_pooling('average_pooling_2d', 2, x, ksize, stride, pad, 0)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """3-dimensional spatial average pooling of ``x`` of shape ``(N, C, D, H, W)``.

    See :func:`average_pooling_nd` for the arguments and the result.
    """
    return _average_pooling('average_pooling_3d', 3, x, ksize, stride, pad, pad_value)
