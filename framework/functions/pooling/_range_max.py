"""The maximum of x over rectangles of whole pixels, by sparse tables.

RoI max pooling reduces a rectangle of pixels per bin and channel. Reading every pixel of every
bin costs ``bins x area x channels``: with Faster R-CNN's 300 rois of up to a whole 38x50 feature
map in 7x7 bins, 80 pixels a bin. A sparse table answers the maximum of any rectangle from four
overlapping blocks instead: ``T[kh, kw][y, x]`` is the maximum of the ``2**kh x 2**kw`` block at
``(y, x)``, and a rectangle of ``h x w`` pixels is covered by the four blocks of
``kh = floor(log2 h)``, ``kw = floor(log2 w)`` at its corners. Each table is made from the last
with one elementwise maximum of x's size, so the cost is ``levels x size(x)`` to build and
``4 x bins x channels`` to read. The tables are made one at a time, each answering the bins of
its ``(kh, kw)``, so memory stays at a few copies of x.

Where the gradient is wanted, each table also keeps the flat position ``y * W + x`` of its
maximum, the first in row-major order on ties (a block made of two halves takes the first
half's on ties; a rectangle takes the least position among its blocks holding the maximum).
"""

from __future__ import annotations

import numpy

from framework import backend
from framework.functions.pooling._roi import Taps, _from_bins, _to_rows, work_dtype


def _levels(xp, lengths):
    """``floor(log2(max(length, 1)))`` of an integer array, as int64."""
    return xp.floor(xp.log2(xp.maximum(lengths, 1))).astype(numpy.int64)


def _halve(table, where, axis: int, step: int):
    """The table of blocks twice as long along ``axis`` (1: rows, 2: columns of the
    ``(N, H, W, G, C)`` layout): the maximum of the blocks at ``i`` and ``i + step``; with
    ``where``, the positions of the maxima (the first block's on ties)."""
    xp = backend.get_array_module(table)
    length = table.shape[axis] - step
    first = [slice(None)] * table.ndim
    second = [slice(None)] * table.ndim
    first[axis], second[axis] = slice(0, length), slice(step, step + length)
    first, second = tuple(first), tuple(second)
    if where is None:
        return xp.maximum(table[first], table[second]), None
    later = table[second] > table[first]
    return (xp.where(later, table[second], table[first]),
            xp.where(later, where[second], where[first]))


def rectangle_maximum(x, groups: int, roi_indices, y_bins, x_bins, bin_groups, outsize,
                      with_taps: bool, grad_mask=None):
    """The maximum of each RoI bin's pixels, per channel, and the taps of the maxima.

    Args:
        x: float array ``(N, C * groups, H, W)``.
        groups (int): the position-sensitive groups (1 for none); input channel
            ``c * groups + g`` is channel ``c`` of group ``g``.
        roi_indices: integer array ``(R,)``, the batch index of each roi.
        y_bins, x_bins: ``(lo, hi)`` pairs of int64 arrays ``(R, outh)`` and ``(R, outw)``, the
            pixel range ``[lo, hi)`` of each bin row and column, within ``[0, H]`` and
            ``[0, W]``.
        bin_groups: int array ``(outh, outw)``, the group each bin reads.
        outsize: ``(outh, outw)``.
        with_taps (bool): whether to find where the maxima are (for the gradient).
        grad_mask: bool ``(R * outh * outw,)`` or None; the taps of bins where it is False are
            zero.

    Returns:
        The maximum ``(R, C, outh, outw)`` of x's dtype (``-inf`` for an empty bin), and the
        :class:`~._roi.Taps` of the maximal pixels (zero weight for empty bins), or None
        without ``with_taps``.
    """
    xp = backend.get_array_module(x)
    n, _, height, width = x.shape
    outh, outw = outsize
    work = work_dtype(x.dtype)
    rows_layout = _to_rows(x, groups, work)
    channels = rows_layout.shape[1]
    table = rows_layout.reshape(n, height, width, groups, channels)
    where = None
    if with_taps:
        where = xp.ascontiguousarray(xp.broadcast_to(
            xp.arange(height * width, dtype=numpy.int32).reshape(1, height, width, 1, 1),
            table.shape))

    (y_lo, y_hi), (x_lo, x_hi) = y_bins, x_bins
    shape = (len(roi_indices), outh, outw)
    heights = xp.broadcast_to((y_hi - y_lo)[:, :, None], shape).ravel()
    widths = xp.broadcast_to((x_hi - x_lo)[:, None, :], shape).ravel()
    tops = xp.broadcast_to(xp.minimum(y_lo, height - 1)[:, :, None], shape).ravel()
    lefts = xp.broadcast_to(xp.minimum(x_lo, width - 1)[:, None, :], shape).ravel()
    images = xp.broadcast_to(roi_indices.astype(numpy.int64)[:, None, None], shape).ravel()
    group = xp.broadcast_to(bin_groups.astype(numpy.int64), shape).ravel()
    empty = (heights <= 0) | (widths <= 0)
    kh, kw = _levels(xp, heights), _levels(xp, widths)
    bottoms = xp.where(empty, tops, tops + xp.maximum(heights, 1) - (1 << kh))
    rights = xp.where(empty, lefts, lefts + xp.maximum(widths, 1) - (1 << kw))

    n_bins = heights.size
    y = xp.empty((n_bins, channels), work)
    best = xp.empty((n_bins, channels), numpy.int32) if with_taps else None
    top_level = int(kh.max()) if n_bins else 0
    column_table, column_where = table, where
    for level_w in range(int(kw.max()) + 1 if n_bins else 0):
        if level_w:
            column_table, column_where = _halve(column_table, column_where, 2,
                                                1 << (level_w - 1))
        block_table, block_where = column_table, column_where
        for level_h in range(top_level + 1):
            if level_h:
                block_table, block_where = _halve(block_table, block_where, 1,
                                                  1 << (level_h - 1))
            chosen = xp.nonzero((kh == level_h) & (kw == level_w))[0]
            if chosen.size == 0:
                continue
            _, table_h, table_w, _, _ = block_table.shape
            flat_table = block_table.reshape(-1, channels)
            flat_where = block_where.reshape(-1, channels) if with_taps else None
            base = images[chosen] * table_h
            values = positions = None
            for rows_at, cols_at in ((tops, lefts), (tops, rights), (bottoms, lefts),
                                     (bottoms, rights)):
                index = ((base + rows_at[chosen]) * table_w + cols_at[chosen]) * groups \
                    + group[chosen]
                corner = flat_table[index]
                if values is None:
                    values = corner
                    if with_taps:
                        positions = flat_where[index]
                elif not with_taps:
                    values = xp.maximum(values, corner)
                else:
                    corner_at = flat_where[index]
                    better = (corner > values) | ((corner == values) & (corner_at < positions))
                    values = xp.where(better, corner, values)
                    positions = xp.where(better, corner_at, positions)
            y[chosen] = values
            if with_taps:
                best[chosen] = positions
    y[empty] = -numpy.inf
    if not with_taps:
        return _from_bins(y, outsize, x.dtype), None

    weights = (~empty).astype(work)
    if grad_mask is not None:
        weights = weights * grad_mask
    rows = (images[:, None] * (height * width) + best) * groups + group[:, None]
    taps = Taps(rows[:, None, :], xp.broadcast_to(weights[:, None, None], rows[:, None].shape),
                x.shape, groups, outsize)
    return _from_bins(y, outsize, x.dtype), taps
