"""Spatial pyramid pooling: max pooling into 1, 2x2, 4x4, ... bins, concatenated."""

from __future__ import annotations

from framework.functions._inputs import positive_int, spatial_input
from framework.functions.array.concat import concat
from framework.functions.array.reshape import reshape
from framework.functions.pooling.max_pooling_nd import max_pooling_2d
from framework.variable import Variable


def spatial_pyramid_pooling_2d(x, pyramid_height: int, pooling: str = 'max') -> Variable:
    """Spatial pyramid pooling: a fixed-length feature whatever the input's spatial size.

    Level ``i`` (from 0) max-pools ``x`` into ``2^i x 2^i`` bins with the kernel size
    ``k = ceil(b / 2^i)`` and the padding ``(2^i k - b) // 2`` along each spatial axis of size
    ``b`` (stride ``k``, ``cover_all``); the levels' outputs are flattened per sample and
    concatenated (He et al., Spatial Pyramid Pooling in Deep Convolutional Networks for Visual
    Recognition, 2014).

    Args:
        x (Variable or array): floating-point input of shape ``(N, C, H, W)``.
        pyramid_height (int): the number of levels.
        pooling (str): the pooling of each level; only ``'max'`` is supported. Chainer has no
            default; this one defaults to the only choice.

    Returns:
        Variable: of shape ``(N, C * (1 + 4 + ... + 4^(pyramid_height - 1)), 1, 1)`` and the
        dtype of ``x``: level 0 first, each level in ``(C, bin_y, bin_x)`` order.
    """
    fname = 'spatial_pyramid_pooling_2d'
    array = spatial_input(fname, x, 2)
    pyramid_height = positive_int(fname, 'pyramid_height', pyramid_height)
    if pooling != 'max':
        raise ValueError(f"{fname}: pooling must be 'max' (the only pooling supported), "
                         f'but got {pooling!r}')
    n, _, h, w = array.shape
    ys = []
    for level in range(pyramid_height):
        bins = 2 ** level
        ksize = (-(-h // bins), -(-w // bins))
        pad = ((ksize[0] * bins - h) // 2, (ksize[1] * bins - w) // 2)
        y = max_pooling_2d(x, ksize, stride=None, pad=pad, cover_all=True)
        _, c, out_h, out_w = y.shape
        ys.append(reshape(y, (n, c * out_h * out_w, 1, 1)))
    return concat(ys, axis=1)
