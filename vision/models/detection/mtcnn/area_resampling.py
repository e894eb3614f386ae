"""Area resampling (PyTorch's ``interpolate(mode='area')``, i.e. adaptive average pooling)
from a summed-area table, for the image pyramid and the face crops alike.

Output pixel ``i`` of a resampling of ``n`` input pixels to ``m`` is the mean of the input
pixels ``floor(i * n / m) <= k < ceil((i + 1) * n / m)``; in two dimensions, the mean over the
product of a row window and a column window. With a summed-area table of the image, each mean
is four look-ups, so crops of any sizes are resampled in one vectorised gather.
"""

from __future__ import annotations

import numpy

from framework import backend
from framework.engine import parallel_map, parallel_slices


def summed_area_table(img):
    """The summed-area table of an image.

    Args:
        img (array): ``(C, H, W)`` image, NumPy or CuPy.

    Returns:
        array: float64 ``(C, H + 1, W + 1)``: ``table[c, y, x]`` is the sum of
        ``img[c, :y, :x]`` (exact for integer-valued images below 2 ** 53 in total).
    """
    xp = backend.get_array_module(img)
    n_channel, height, width = img.shape
    table = xp.zeros((n_channel, height + 1, width + 1), dtype=numpy.float64)
    inner = table[:, 1:, 1:]
    if xp is numpy:
        # Along the rows in bands side by side (NumPy's cumsum runs on one core), then down
        # the columns row by row: NumPy's cumsum along a leading axis strides across the
        # rows, 3x slower.
        def cumulate_rows(rows):
            band = inner[:, rows]
            band[...] = img[:, rows]  # cumsum would cast all of img to a float64 temporary
            numpy.cumsum(band, axis=2, out=band)

        parallel_map(cumulate_rows, parallel_slices(height))
        for y in range(1, height):
            numpy.add(inner[:, y - 1], inner[:, y], out=inner[:, y])
    else:
        xp.cumsum(img, axis=2, dtype=numpy.float64, out=inner)
        xp.cumsum(inner, axis=1, out=inner)
    return table


def area_windows(start, length, n_out: int):
    """The input windows of the outputs of area resampling, for a batch of spans.

    Args:
        start (array): int64 ``(R,)`` first input index of each span.
        length (array): int64 ``(R,)`` number of input pixels of each span, positive.
        n_out (int): the number of outputs of each span.

    Returns:
        tuple: int64 ``(R, n_out)`` arrays ``(begin, end)``: output ``i`` of span ``r`` is
        the mean of the inputs ``begin[r, i] <= k < end[r, i]``.
    """
    xp = backend.get_array_module(start, length)
    i = xp.arange(n_out, dtype=numpy.int64)
    length = length[:, None]
    begin = start[:, None] + i * length // n_out
    end = start[:, None] + ((i + 1) * length + n_out - 1) // n_out
    return begin, end


def window_means(table, rows, cols):
    """Means of an image over products of row and column windows.

    Args:
        table (array): float64 ``(C, H + 1, W + 1)`` from :func:`summed_area_table`.
        rows (tuple of array): int64 ``(R, h)`` arrays ``(begin, end)``, as from
            :func:`area_windows`, with ``0 <= begin < end <= H``.
        cols (tuple of array): int64 ``(R, w)`` arrays ``(begin, end)`` alike, ``<= W``.

    Returns:
        array: float64 ``(R, C, h, w)``: the mean of ``img[c, rows[0][r, i]:rows[1][r, i],
        cols[0][r, j]:cols[1][r, j]]`` at ``[r, c, i, j]``.
    """
    xp = backend.get_array_module(table)
    n_channel, _, width = table.shape
    flat = table.reshape(n_channel, -1)
    # Flat indices into the table: one take each is much faster than 2-d fancy indexing.
    y0, y1 = (r[:, :, None] * width for r in rows)
    x0, x1 = (c[:, None, :] for c in cols)
    total = xp.take(flat, y1 + x1, axis=1)
    total -= xp.take(flat, y0 + x1, axis=1)
    total -= xp.take(flat, y1 + x0, axis=1)
    total += xp.take(flat, y0 + x0, axis=1)
    total /= (rows[1] - rows[0])[:, :, None] * (cols[1] - cols[0])[:, None, :]
    return total.transpose(1, 0, 2, 3)


def normalize(mean):
    """MTCNN's input normalisation: ``(value - 127.5) * 0.0078125`` as float32."""
    return ((mean - 127.5) * 0.0078125).astype(numpy.float32, order='C')
