"""Argument checks shared by the pooling functions."""

from __future__ import annotations

from framework.functions._inputs import spatial_tuple
from framework.functions.pooling._windows import Windows
from framework.utils.conv import get_deconv_outsize


def pooling_windows(fname: str, in_size, ksize, stride, pad, cover_all: bool) -> Windows:
    """The :class:`Windows` of a pooling over inputs of spatial size ``in_size``.

    ``stride`` None means ``ksize`` (Chainer's default).

    Raises:
        ValueError: when the arguments are malformed or no window fits in the input.
    """
    n = len(in_size)
    ksize = spatial_tuple(fname, 'ksize', ksize, n, 1)
    stride = ksize if stride is None else spatial_tuple(fname, 'stride', stride, n, 1)
    pad = spatial_tuple(fname, 'pad', pad, n, 0)
    windows = Windows(in_size, ksize, stride, pad, bool(cover_all))
    if any(o <= 0 for o in windows.out_size):
        raise ValueError(f'{fname}: the windows (ksize {ksize}, stride {stride}, pad {pad}) '
                         f'do not fit in the spatial size {tuple(in_size)} of the input: the '
                         f'output size would be {windows.out_size}')
    return windows


def expanding_windows(fname: str, x_size, ksize, stride, pad, outsize, cover_all: bool
                      ) -> Windows:
    """The :class:`Windows` of the pooling that unpooling or upsampling ``x`` inverts.

    Args:
        x_size: the spatial size of the pooled input (the windows' output size).
        outsize: the spatial size of the result (the windows' input size); None to infer it
            as Chainer's ``get_deconv_outsize`` does.

    Raises:
        ValueError: when ``outsize`` pooled with these windows does not give ``x_size``.
    """
    n = len(x_size)
    ksize = spatial_tuple(fname, 'ksize', ksize, n, 1)
    stride = ksize if stride is None else spatial_tuple(fname, 'stride', stride, n, 1)
    pad = spatial_tuple(fname, 'pad', pad, n, 0)
    if outsize is None:
        outsize = tuple(get_deconv_outsize(size, k, s, p, bool(cover_all))
                        for size, k, s, p in zip(x_size, ksize, stride, pad))
        if any(o <= 0 for o in outsize):
            raise ValueError(f'{fname}: the inferred output size {outsize} of x with spatial '
                             f'size {tuple(x_size)} is not positive (ksize {ksize}, stride '
                             f'{stride}, pad {pad}); pass outsize')
    else:
        outsize = spatial_tuple(fname, 'outsize', outsize, n, 1)
    windows = Windows(outsize, ksize, stride, pad, bool(cover_all))
    if windows.out_size != tuple(x_size):
        raise ValueError(f'{fname}: outsize {outsize} pooled with ksize {ksize}, stride '
                         f'{stride}, pad {pad}, cover_all={bool(cover_all)} gives spatial '
                         f'size {windows.out_size}, but x has spatial size {tuple(x_size)}')
    return windows
