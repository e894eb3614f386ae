"""Where the bins of the region-of-interest functions read x, for all regions and bins at once.

RoI align reads bilinearly interpolated sample points on a regular grid in each bin, returned as
:class:`~._roi.Samples`; RoI pooling reads the pixels of an integer range in each bin, returned
as :class:`PixelBins` (averaged through their samples, maximised by sparse tables).
Coordinates are computed in float64 from the rois, as Chainer's NumPy code does (NumPy 1
computes ``float32 * float`` in float64), so that bin boundaries and rounding match Chainer's.
"""

from __future__ import annotations

import numpy

from framework import backend
from framework.functions.pooling._range_max import rectangle_maximum
from framework.functions.pooling._roi import Samples


def scaled_coordinates(rois, spatial_scale: float):
    """The rois in float64, multiplied by ``spatial_scale``."""
    return rois.astype(numpy.float64) * spatial_scale


def _bin_groups(xp, outsize, group_size: int):
    """The position-sensitive group ``gh * group_size + gw`` of each bin, ``(outh, outw)``:
    bin ``(i, j)`` of an ``outh x outw`` output lies in group row ``i * group_size // outh``."""
    outh, outw = outsize
    gh = xp.arange(outh) * group_size // outh
    gw = xp.arange(outw) * group_size // outw
    return gh[:, None] * group_size + gw[None, :]


def _rows(x_shape, roi_indices, y_pixels, x_pixels, outsize, group_size: int):
    """Rows of the row layout of x (see :mod:`._roi`) of pixels given per axis.

    ``y_pixels`` ``(R, outh, *a)`` and ``x_pixels`` ``(R, outw, *b)``, where ``a`` and ``b``
    broadcast together, give rows ``(R, outh, outw, *broadcast(a, b))``.
    """
    xp = backend.get_array_module(y_pixels)
    _, _, height, width = x_shape
    batch = roi_indices.astype(numpy.int64).reshape((-1,) + (1,) * (y_pixels.ndim - 1))
    rows = (batch * height + y_pixels)[:, :, None] * width + x_pixels[:, None]
    if group_size == 1:
        return rows
    groups = _bin_groups(xp, outsize, group_size)
    return rows * group_size ** 2 + groups.reshape(groups.shape + (1,) * (rows.ndim - 3))


def _samples(rows, weights, valid, count, corners, x_shape, outsize, group_size):
    """Flattens ``(R, outh, outw, ...)`` arrays into the bins of a :class:`Samples`."""
    n_bins = rows.shape[0] * outsize[0] * outsize[1]
    n_samples = valid[0, 0, 0].size if n_bins else 1
    return Samples(rows.reshape(n_bins, n_samples * corners),
                   weights.reshape(n_bins, n_samples * corners),
                   valid.reshape(n_bins, n_samples), count.reshape(n_bins), corners, x_shape,
                   group_size ** 2, outsize)


# --- RoI align ---------------------------------------------------------------------------------

def _bilinear_axis(xp, start, end, outsize: int, limit: int, ratio, min_size: float):
    """The sample points of the bins along one axis and their two neighbouring pixels.

    The roi ``[start, end]`` spans ``max(end - start, min_size)``; each of its ``outsize`` bins
    has ``ratio`` points (``ceil(bin size)`` when ratio is None) at the centres of equal parts.
    A point outside ``[-1, limit]`` reads nothing; one in ``[-1, 0]`` reads pixel 0 and one past
    ``limit - 1`` reads pixel ``limit - 1`` (Chainer's border rule).

    Returns:
        pixels: int64 ``(R, outsize, G, 2)``, the lower and upper neighbour of each point.
        weights: float64 ``(R, outsize, G, 2)``, their linear weights; 0 for absent points.
        valid: bool ``(R, outsize, G)``, the points inside the image and the bin's grid.
        grid: int64 ``(R,)``, the points per bin; ``G`` is the largest.
    """
    bin_size = xp.maximum(end - start, min_size) / outsize
    if ratio is None:
        grid = xp.ceil(bin_size).astype(numpy.int64)
        n_points = int(grid.max()) if grid.size else 1
    else:
        grid = xp.full(bin_size.shape, ratio, numpy.int64)
        n_points = ratio
    size = bin_size[:, None, None]
    points = xp.arange(n_points, dtype=numpy.float64)
    bins = xp.arange(outsize, dtype=numpy.float64)[:, None]
    coord = start[:, None, None] + bins * size + (points + .5) * size / grid[:, None, None]
    valid = (coord >= -1) & (coord <= limit) & (points < grid[:, None, None])
    coord = xp.maximum(coord, 0.)
    low = xp.floor(coord)
    last = low >= limit - 1
    low = xp.where(last, float(limit - 1), low)
    upper_weight = xp.where(last, 0., coord - low)
    lower_weight = xp.where(last, 1., (low + 1) - coord)
    weights = xp.stack([lower_weight, upper_weight], axis=-1) * valid[..., None]
    low = low.astype(numpy.int64)
    pixels = xp.stack([low, xp.where(last, low, low + 1)], axis=-1)
    return pixels, weights, valid, grid


def bilinear_samples(x_shape, rois, roi_indices, outsize, spatial_scale: float, sampling_ratio,
                     min_size: float, group_size: int = 1) -> Samples:
    """The bilinear sample points of RoI align: ``S = G_h * G_w`` points per bin, each read
    through its 4 neighbouring pixels; ``count`` is the bin's grid size (Chainer divides the sum
    by it whether or not the points fall inside the image).

    Args:
        x_shape: ``(N, C, H, W)``.
        rois: ``(R, 4)`` of ``(y_min, x_min, y_max, x_max)``; roi_indices: ``(R,)``.
        outsize, sampling_ratio: pairs (height, width); a ratio of None is adaptive.
        min_size: the smallest roi extent (1 in Chainer, 0.1 in ChainerCV's PS functions).
        group_size: the position-sensitive group size (1 for none).
    """
    xp = backend.get_array_module(rois)
    _, _, height, width = x_shape
    coords = scaled_coordinates(rois, spatial_scale)
    y_pixels, y_weights, y_valid, y_grid = _bilinear_axis(
        xp, coords[:, 0], coords[:, 2], outsize[0], height, sampling_ratio[0], min_size)
    x_pixels, x_weights, x_valid, x_grid = _bilinear_axis(
        xp, coords[:, 1], coords[:, 3], outsize[1], width, sampling_ratio[1], min_size)
    # axes after (roi, bin row, bin column): point row, point column, pixel row, pixel column
    y_pixels, y_weights = y_pixels[:, :, :, None, :, None], y_weights[:, :, :, None, :, None]
    x_pixels, x_weights = x_pixels[:, :, None, :, None, :], x_weights[:, :, None, :, None, :]
    rows = _rows(x_shape, roi_indices, y_pixels, x_pixels, outsize, group_size)
    weights = y_weights[:, :, None] * x_weights[:, None]
    valid = y_valid[:, :, None, :, None] & x_valid[:, None, :, None, :]
    count = xp.broadcast_to((y_grid * x_grid).astype(numpy.float64)[:, None, None],
                            rows.shape[:3])
    return _samples(rows, weights, valid, count, 4, x_shape, outsize, group_size)


# --- RoI pooling -------------------------------------------------------------------------------

def rounded_bins(xp, low, high, outsize: int, limit: int, extra: int):
    """Chainer's pixel bins of RoI max and average pooling along one axis.

    The roi runs from pixel ``round(low)`` to ``round(high)`` (to the nearest even on ties, as
    NumPy rounds), ``size = max(end - start + extra, 1)`` pixels, split into bins
    ``[floor(i * size / outsize), ceil((i + 1) * size / outsize))`` from its start, clipped to
    ``[0, limit]``.

    Returns:
        ``lo``, ``hi``: int64 ``(R, outsize)``; and bool ``(R,)``: whether ``end >= start``.
    """
    start, end = xp.rint(low), xp.rint(high)
    stride = (xp.maximum(end - start + extra, 1.) / outsize)[:, None]
    i = xp.arange(outsize, dtype=numpy.float64)
    lo = xp.floor(i * stride) + start[:, None]
    hi = xp.ceil((i + 1) * stride) + start[:, None]
    return (xp.clip(lo, 0, limit).astype(numpy.int64), xp.clip(hi, 0, limit).astype(numpy.int64),
            end >= start)


def float_bins(xp, low, high, outsize: int, limit: int, min_size: float):
    """ChainerCV's pixel bins of position-sensitive RoI pooling along one axis: the roi
    ``[low, high]`` spans ``max(high - low, min_size)``; bin ``i`` covers pixels from
    ``floor(low + i * bin)`` up to ``ceil(low + (i + 1) * bin)``, clipped to ``[0, limit]``.

    Returns:
        ``lo``, ``hi``: int64 ``(R, outsize)``.
    """
    bin_size = (xp.maximum(high - low, min_size) / outsize)[:, None]
    i = xp.arange(outsize, dtype=numpy.float64)
    lo = xp.floor(i * bin_size + low[:, None])
    hi = xp.ceil((i + 1) * bin_size + low[:, None])
    return xp.clip(lo, 0, limit).astype(numpy.int64), xp.clip(hi, 0, limit).astype(numpy.int64)


def _pixels_axis(xp, lo, hi):
    """The pixels of the bins ``[lo, hi)`` of one axis, padded to the widest bin ``K``: pixels
    int64 ``(R, outsize, K)`` (0 for padding) and valid bool ``(R, outsize, K)``."""
    n_pixels = max(1, int((hi - lo).max())) if lo.size else 1
    pixels = lo[:, :, None] + xp.arange(n_pixels)
    valid = pixels < hi[:, :, None]
    return xp.where(valid, pixels, 0), valid


class PixelBins:
    """The bins of RoI pooling: rectangles of whole pixels.

    Args:
        x_shape: ``(N, C, H, W)``.
        roi_indices: ``(R,)``.
        y_bins, x_bins: ``(lo, hi)`` pairs of int arrays ``(R, outh)`` and ``(R, outw)``.
        outsize: ``(outh, outw)``.
        group_size: the position-sensitive group size (1 for none).
    """

    def __init__(self, x_shape, roi_indices, y_bins, x_bins, outsize, group_size: int = 1):
        self.x_shape, self.roi_indices = x_shape, roi_indices
        self.y_bins, self.x_bins = y_bins, x_bins
        self.outsize, self.group_size = outsize, group_size

    @property
    def empty(self):
        """Bool ``(R * outh * outw,)``: the bins without a pixel."""
        (y_lo, y_hi), (x_lo, x_hi) = self.y_bins, self.x_bins
        return ((y_hi <= y_lo)[:, :, None] | (x_hi <= x_lo)[:, None, :]).ravel()

    def samples(self) -> Samples:
        """The pixels of the bins, one tap each; ``count`` is the bin's area (at least 1)."""
        xp = backend.get_array_module(self.roi_indices)
        y_pixels, y_valid = _pixels_axis(xp, *self.y_bins)
        x_pixels, x_valid = _pixels_axis(xp, *self.x_bins)
        rows = _rows(self.x_shape, self.roi_indices, y_pixels[:, :, :, None],
                     x_pixels[:, :, None, :], self.outsize, self.group_size)
        valid = y_valid[:, :, None, :, None] & x_valid[:, None, :, None, :]
        (y_lo, y_hi), (x_lo, x_hi) = self.y_bins, self.x_bins
        area = (y_hi - y_lo)[:, :, None] * (x_hi - x_lo)[:, None, :]
        count = xp.maximum(area, 1).astype(numpy.float64)
        return _samples(rows, valid.astype(numpy.float64), valid, count, 1, self.x_shape,
                        self.outsize, self.group_size)

    def average(self, x):
        """The average of each bin, and the taps of that map (see :meth:`Samples.average`)."""
        return self.samples().average(x)

    def maximum(self, x, with_taps: bool = True, grad_mask=None):
        """The maximum of each bin (``-inf`` where a bin has no pixel), and the taps of the
        maximal pixels (the first in row-major order on ties; None without ``with_taps``),
        zeroed where ``grad_mask`` (bool ``(R * outh * outw,)``) is False."""
        xp = backend.get_array_module(x)
        groups = _bin_groups(xp, self.outsize, self.group_size)
        return rectangle_maximum(x, self.group_size ** 2, self.roi_indices, self.y_bins,
                                 self.x_bins, groups, self.outsize, with_taps, grad_mask)


def position_sensitive_bins(x_shape, rois, roi_indices, outsize, spatial_scale: float,
                            group_size: int) -> PixelBins:
    """The pixel bins of ChainerCV's position-sensitive RoI pooling: the rois scaled by
    ``spatial_scale`` without rounding, at least 0.1 pixel high and wide, in the bins of
    :func:`float_bins`, read from the channels of their position-sensitive groups.

    Args:
        x_shape: ``(N, C, H, W)``.
        rois: ``(R, 4)`` of ``(y_min, x_min, y_max, x_max)``; roi_indices: ``(R,)``.
        outsize: ``(outh, outw)``.
        group_size: the position-sensitive group size.
    """
    xp = backend.get_array_module(rois)
    _, _, height, width = x_shape
    coords = scaled_coordinates(rois, spatial_scale)
    y_bins = float_bins(xp, coords[:, 0], coords[:, 2], outsize[0], height, 0.1)
    x_bins = float_bins(xp, coords[:, 1], coords[:, 3], outsize[1], width, 0.1)
    return PixelBins(x_shape, roi_indices, y_bins, x_bins, outsize, group_size)


def rounded_pixel_bins(x_shape, coords, roi_indices, outsize, extra: int):
    """The pixel bins of Chainer's RoI max and average pooling (see :func:`rounded_bins`).

    Args:
        coords: float64 ``(R, 4)`` of scaled ``(y_min, x_min, y_max, x_max)``.

    Returns:
        The :class:`PixelBins`, and bool ``(R,)``: whether both ends of the roi round in
        order.
    """
    xp = backend.get_array_module(coords)
    _, _, height, width = x_shape
    y_lo, y_hi, y_ok = rounded_bins(xp, coords[:, 0], coords[:, 2], outsize[0], height, extra)
    x_lo, x_hi, x_ok = rounded_bins(xp, coords[:, 1], coords[:, 3], outsize[1], width, extra)
    bins = PixelBins(x_shape, roi_indices, (y_lo, y_hi), (x_lo, x_hi), outsize)
    return bins, y_ok & x_ok
