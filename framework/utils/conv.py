"""Window geometry shared by convolution and pooling, for any number of spatial axes.

The windows of a convolution or a pooling along each spatial axis are fixed by the input's
size, the kernel size, the stride, the padding at the start, the dilation and the number of
windows (the output size, Chainer's :func:`get_conv_outsize`). :class:`WindowGeometry` holds
them and computes, for arrays of any array module and of any layout (the spatial axes
consecutive, from a given axis on): the padded input, every window as a strided view (no copy),
and the elements at one kernel offset of every window. :func:`im2col` and :func:`col2im`
(its adjoint, adding windows back into an image) are built on it for arrays ``(N, C,
*spatial)``.
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


def get_conv_outsizes(in_size: Sequence[int], ksize: Sequence[int], stride: Sequence[int],
                      pad: Sequence[int], cover_all: bool | Sequence[bool] = False,
                      dilate: Sequence[int] | None = None) -> tuple[int, ...]:
    """:func:`get_conv_outsize` along every spatial axis.

    Args:
        in_size, ksize, stride, pad: one int per spatial axis.
        cover_all: a bool, or one per spatial axis.
        dilate: one int per spatial axis (1 when None).

    Returns:
        tuple of int: the number of windows along each axis.
    """
    n = len(in_size)
    dilate = (1,) * n if dilate is None else dilate
    return tuple(get_conv_outsize(size, k, s, p, c, d) for size, k, s, p, c, d in zip(
        in_size, ksize, stride, pad, _per_axis(cover_all, n), dilate))


def _per_axis(flag: bool | Sequence[bool], n: int) -> tuple[bool, ...]:
    """``flag`` (a bool or one bool per axis) as a tuple of ``n`` bools."""
    if isinstance(flag, Sequence):
        if len(flag) != n:
            raise ValueError(f'expected one flag per spatial axis ({n}), but got {tuple(flag)}')
        return tuple(bool(f) for f in flag)
    return (bool(flag),) * n


class WindowGeometry:
    """The windows of a convolution or pooling, ``out_size`` of them per spatial axis.

    Window ``o`` reads, at kernel offset ``k``, the element ``o * stride + k * dilate`` of the
    input padded by ``pad`` at the start of each axis (and by ``end_pad`` at the end).

    Args:
        in_size, out_size, ksize, stride, pad: one int per spatial axis.
        dilate: one int per spatial axis (1 when None).

    Attributes:
        end_pad (tuple of int): the padding at the end of each axis that the last window
            reaches into (less than ``pad`` where the stride skips the end, more with
            ``cover_all``).
        padded_size (tuple of int): the spatial size of the padded input.
        needs_padding (bool): whether the windows reach outside the input.
    """

    def __init__(self, in_size: Sequence[int], out_size: Sequence[int], ksize: Sequence[int],
                 stride: Sequence[int], pad: Sequence[int],
                 dilate: Sequence[int] | None = None):
        self.in_size = tuple(in_size)
        self.out_size = tuple(out_size)
        self.ksize = tuple(ksize)
        self.stride = tuple(stride)
        self.pad = tuple(pad)
        self.dilate = (1,) * len(self.ksize) if dilate is None else tuple(dilate)
        self.end_pad = tuple(max(0, (o - 1) * s + (k - 1) * d + 1 - p - n) for n, o, k, s, p, d in
                             zip(self.in_size, self.out_size, self.ksize, self.stride, self.pad,
                                 self.dilate))
        self.padded_size = tuple(p + n + e for p, n, e in
                                 zip(self.pad, self.in_size, self.end_pad))
        self.needs_padding = any(self.pad) or any(self.end_pad)

    @classmethod
    def for_input(cls, in_size: Sequence[int], ksize: Sequence[int], stride: Sequence[int],
                  pad: Sequence[int], cover_all: bool | Sequence[bool] = False,
                  dilate: Sequence[int] | None = None) -> WindowGeometry:
        """The windows over an input of spatial size ``in_size``, as many as
        :func:`get_conv_outsizes` gives (``cover_all``: a bool, or one per axis)."""
        out_size = get_conv_outsizes(in_size, ksize, stride, pad, cover_all, dilate)
        return cls(in_size, out_size, ksize, stride, pad, dilate)

    def padded_shape(self, shape: Sequence[int], axis: int = 2) -> tuple[int, ...]:
        """The shape of an array of ``shape`` (spatial axes from ``axis`` on) once padded."""
        return tuple(shape[:axis]) + self.padded_size + tuple(shape[axis + len(self.ksize):])

    def padded(self, x, value, axis: int = 2, out=None):
        """``x`` padded with ``value`` along its spatial axes (from ``axis`` on).

        ``numpy.pad`` costs about 0.1 ms of Python per call, more than the copy of a small
        array: the borders are filled slab by slab instead.

        Args:
            x: an array whose axes ``axis, axis + 1, ...`` are the input's spatial axes.
            value: the value of the padding.
            axis: the first spatial axis.
            out: an array of :meth:`padded_shape` to write into; None for a new one.

        Returns:
            The padded array (``out`` when given), or ``x`` itself when no window reaches
            outside the input.
        """
        if not self.needs_padding:
            return x
        xp = backend.get_array_module(x)
        shape = self.padded_shape(x.shape, axis)
        padded = xp.empty(shape, x.dtype) if out is None else out
        lead = (slice(None),) * axis
        padded[lead + tuple(slice(p, p + n) for p, n in zip(self.pad, self.in_size))] = x
        for d, (p, e, size) in enumerate(zip(self.pad, self.end_pad, self.padded_size)):
            for border in (slice(0, p), slice(size - e, size)):
                if border.start < border.stop:
                    padded[lead + (slice(None),) * d + (border,)] = value
        return padded

    def windows(self, padded, axis: int = 2):
        """Every window of a padded input (from :meth:`padded`), as a strided view.

        The windows overlap where the stride is less than the kernel: write to the view's
        base, never to the view.

        Args:
            padded: an array whose axes ``axis, axis + 1, ...`` are the padded spatial axes.
            axis: the first spatial axis.

        Returns:
            A view of shape ``(*lead, *out_size, *ksize, *trail)`` (the spatial axes replaced
            by the window and kernel axes), whose element ``[..., o, k, ...]`` is the padded
            input's ``o * stride + k * dilate``.
        """
        xp = backend.get_array_module(padded)
        n = len(self.ksize)
        strides = padded.strides
        spatial = strides[axis:axis + n]
        shape = padded.shape[:axis] + self.out_size + self.ksize + padded.shape[axis + n:]
        view_strides = (strides[:axis] + tuple(st * s for st, s in zip(spatial, self.stride))
                        + tuple(st * d for st, d in zip(spatial, self.dilate))
                        + strides[axis + n:])
        return xp.lib.stride_tricks.as_strided(padded, shape, view_strides)

    def at_offset(self, padded, offset: Sequence[int], axis: int = 2):
        """The elements at kernel offset ``offset`` of every window of a padded input.

        Args:
            padded: an array whose axes ``axis, axis + 1, ...`` are the padded spatial axes.
            offset: one int per spatial axis, in ``range(ksize)``.
            axis: the first spatial axis.

        Returns:
            A view (basic slicing: writing to it writes to ``padded``) of shape ``(*lead,
            *out_size, *trail)``.
        """
        return padded[(slice(None),) * axis + tuple(
            slice(k * d, k * d + (o - 1) * s + 1, s)
            for k, d, o, s in zip(offset, self.dilate, self.out_size, self.stride))]

    def valid_counts(self, xp, dtype):
        """The number of input (non-padding) elements in each window, of shape ``out_size``
        and ``dtype``, an array of the array module ``xp``."""
        counts = None
        for axis, (n, k, s, p, o, d) in enumerate(zip(self.in_size, self.ksize, self.stride,
                                                      self.pad, self.out_size, self.dilate)):
            taps = xp.arange(o)[:, None] * s - p + xp.arange(k) * d
            count = ((taps >= 0) & (taps < n)).sum(axis=1)
            count = count.reshape((o,) + (1,) * (len(self.out_size) - axis - 1))
            counts = count if counts is None else counts * count
        return counts.astype(dtype)


#: On the CPU, the most bytes of a static graph's convolution columns made at once: larger
#: column matrices are made and multiplied a band of output rows at a time, so that each band
#: is still in the cache when the product reads it (:func:`column_band_rows`)...
COLUMN_BAND_BYTES = 16 << 20
#: ... as long as a band keeps this many output positions (rows of the product): thinner
#: products lose more than the cache gives (PSPNet's 36,864-long windows).
MIN_BAND_POSITIONS = 4096


def column_band_rows(n_positions: int, row_positions: int, window: int, itemsize: int,
                     out_rows: int) -> int | None:
    """The output rows of an image whose columns to make at once, or None to make them all.

    Args:
        n_positions: the output positions of the whole product (every image).
        row_positions: the output positions of one output row.
        window: the elements of a window (a row of the columns).
        itemsize: the bytes of an element.
        out_rows: the output rows of an image.
    """
    row_bytes = window * itemsize
    if (n_positions * row_bytes <= COLUMN_BAND_BYTES
            or COLUMN_BAND_BYTES // row_bytes < MIN_BAND_POSITIONS):
        return None
    return max(1, min(out_rows, COLUMN_BAND_BYTES // (row_positions * row_bytes)))


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
        A view (not to be written to) of shape ``(N, C, *ksize, *out_size)`` whose element
        ``[n, c, *k, *o]`` is the padded input at ``o * stride + k * dilate``.
    """
    xp = backend.get_array_module(x)
    geometry = WindowGeometry.for_input(x.shape[2:], ksize, stride, pad, cover_all, dilate)
    windows = geometry.windows(geometry.padded(x, pad_value))
    n = len(geometry.ksize)
    return xp.moveaxis(windows, tuple(range(2 + n, 2 + 2 * n)), tuple(range(2, 2 + n)))


def col2im(col, stride: Sequence[int], pad: Sequence[int], sizes: Sequence[int],
           dilate: Sequence[int] | None = None):
    """Adds windows back into an image: the adjoint of :func:`im2col`, looping over kernel
    offsets (never over pixels).

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
    n = len(sizes)
    geometry = WindowGeometry(sizes, col.shape[2 + n:], col.shape[2:2 + n], stride, pad, dilate)
    img = xp.zeros(geometry.padded_shape(col.shape[:2] + tuple(sizes)), col.dtype)
    for offset in itertools.product(*(range(k) for k in geometry.ksize)):
        target = geometry.at_offset(img, offset)
        target += col[(slice(None), slice(None)) + offset]
    crop = tuple(slice(p, p + size) for p, size in zip(pad, sizes))
    return img[(slice(None), slice(None)) + crop]
