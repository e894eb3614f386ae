"""Window arithmetic shared by convolution and pooling, for any number of spatial axes.

Arrays are laid out ``(N, C, *spatial)``. :func:`im2col` returns the windows of a padded input
as a strided view (no copy) of shape ``(N, C, *ksize, *out_size)``; :func:`col2im` is its adjoint
and adds windows back into an image, looping over kernel offsets (never over pixels).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from framework import backend


def get_conv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False,
                     d: int = 1) -> int:
    """The output size of a convolution or pooling along one axis (Chainer's formula).

    Args:
        size: the input size. k: the kernel size. s: the stride. p: the padding on each side.
        cover_all: make the last window cover the end of the input even when the stride skips
            over it (extra padding at the end).
        d: the dilation.
    """
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False,
                       d: int = 1) -> int:
    """The output size of a transposed convolution along one axis (Chainer's formula)."""
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def _per_axis(flag: bool | Sequence[bool], n: int) -> tuple[bool, ...]:
    """``flag`` (a bool or one bool per axis) as a tuple of ``n`` bools."""
    if isinstance(flag, Sequence):
        if len(flag) != n:
            raise ValueError(f'expected one flag per spatial axis ({n}), but got {tuple(flag)}')
        return tuple(bool(f) for f in flag)
    return (bool(flag),) * n


def _end_padding(stride, pad, cover_all):
    """Padding at the end of each axis: ``pad``, plus what cover_all's last window needs."""
    return tuple(p + (s - 1) * c for p, s, c in zip(pad, stride, cover_all))


def _pad(x, before, after, value):
    """``x`` with its spatial axes padded by ``before`` and ``after`` elements of ``value``.

    ``numpy.pad`` costs about 0.1 ms of Python per call, more than the copy of a small array.
    """
    xp = backend.get_array_module(x)
    shape = x.shape[:2] + tuple(n + b + a for n, b, a in zip(x.shape[2:], before, after))
    padded = xp.empty(shape, x.dtype)
    everything = [slice(None)] * x.ndim
    padded[tuple(everything[:2]) + tuple(slice(b, b + n) for b, n in
                                         zip(before, x.shape[2:]))] = x
    for axis, (b, a) in enumerate(zip(before, after), 2):
        for border in (slice(0, b), slice(shape[axis] - a, shape[axis])):
            if border.start < border.stop:
                padded[tuple(everything[:axis]) + (border,)] = value
    return padded


def im2col(x, ksize: Sequence[int], stride: Sequence[int], pad: Sequence[int],
           pad_value=0, cover_all: bool | Sequence[bool] = False,
           dilate: Sequence[int] | None = None):
    """The sliding windows of a padded array, as a strided view.

    Args:
        x: array of shape ``(N, C, *spatial)``.
        ksize, stride, pad: one int per spatial axis.
        pad_value: the value of the padding.
        cover_all: as in :func:`get_conv_outsize`; a bool, or one per spatial axis.
        dilate: one int per spatial axis (1 when None).

    Returns:
        A read-only view of shape ``(N, C, *ksize, *out_size)`` whose element
        ``[n, c, *k, *o]`` is the padded input at ``o * stride + k * dilate``.
    """
    xp = backend.get_array_module(x)
    n_spatial = x.ndim - 2
    dilate = tuple(dilate) if dilate is not None else (1,) * n_spatial
    cover_all = _per_axis(cover_all, n_spatial)
    sizes = x.shape[2:]
    out = tuple(get_conv_outsize(size, k, s, p, c, d)
                for size, k, s, p, c, d in zip(sizes, ksize, stride, pad, cover_all, dilate))
    end = _end_padding(stride, pad, cover_all)
    padded = x if not any(pad) and not any(end) else _pad(x, pad, end, pad_value)
    strides = padded.strides
    window_strides = tuple(st * d for st, d in zip(strides[2:], dilate))
    out_strides = tuple(st * s for st, s in zip(strides[2:], stride))
    return xp.lib.stride_tricks.as_strided(
        padded, shape=x.shape[:2] + tuple(ksize) + out,
        strides=strides[:2] + window_strides + out_strides, writeable=False)


def col2im(col, stride: Sequence[int], pad: Sequence[int], sizes: Sequence[int],
           dilate: Sequence[int] | None = None):
    """Adds windows back into an image: the adjoint of :func:`im2col`.

    Args:
        col: array of shape ``(N, C, *ksize, *out_size)``.
        stride, pad: one int per spatial axis.
        sizes: the spatial sizes of the image (without padding).
        dilate: one int per spatial axis (1 when None).

    Returns:
        An array of shape ``(N, C, *sizes)``: each image element is the sum of the window
        elements that :func:`im2col` would have read from it.
    """
    xp = backend.get_array_module(col)
    n_spatial = len(sizes)
    dilate = tuple(dilate) if dilate is not None else (1,) * n_spatial
    ksize = col.shape[2:2 + n_spatial]
    out = col.shape[2 + n_spatial:]
    padded_sizes = tuple(max(size + 2 * p, (o - 1) * s + (k - 1) * d + 1)
                         for size, p, o, s, k, d in zip(sizes, pad, out, stride, ksize, dilate))
    img = xp.zeros(col.shape[:2] + padded_sizes, col.dtype)
    for offsets in itertools.product(*(range(k) for k in ksize)):
        window = tuple(slice(k * d, k * d + (o - 1) * s + 1, s)
                       for k, d, o, s in zip(offsets, dilate, out, stride))
        img[(slice(None), slice(None)) + window] += col[(slice(None), slice(None)) + offsets]
    crop = tuple(slice(p, p + size) for p, size in zip(pad, sizes))
    return img[(slice(None), slice(None)) + crop]
