"""The sparse-table maximum of the RoI max poolings against each bin's pixels read one by one."""

import numpy
import pytest

from framework.functions.pooling._range_max import rectangle_maximum


def _brute_force(x, groups, roi_indices, y_bins, x_bins, bin_groups):
    """The maximum of every bin and channel, and the flat position ``y * W + x`` of its first
    maximal pixel in row-major order (-1 for an empty bin)."""
    n, channels, height, width = x.shape
    planes = x.reshape(n, channels // groups, groups, height, width)
    r, outh = y_bins[0].shape
    outw = x_bins[0].shape[1]
    y = numpy.full((r, channels // groups, outh, outw), -numpy.inf, x.dtype)
    where = numpy.full(y.shape, -1)
    for k in range(r):
        for i in range(outh):
            for j in range(outw):
                y0, y1 = y_bins[0][k, i], y_bins[1][k, i]
                x0, x1 = x_bins[0][k, j], x_bins[1][k, j]
                if y1 <= y0 or x1 <= x0:
                    continue
                block = planes[roi_indices[k], :, bin_groups[i, j], y0:y1, x0:x1]
                flat = block.reshape(block.shape[0], -1)
                first = flat.argmax(axis=1)
                y[k, :, i, j] = flat.max(axis=1)
                where[k, :, i, j] = (y0 + first // (x1 - x0)) * width + x0 + first % (x1 - x0)
    return y, where


def _bins(rng, r, out, limit):
    lo = rng.randint(0, limit + 1, (r, out))
    return lo, numpy.minimum(lo + rng.randint(0, limit + 1, (r, out)), limit)


@pytest.mark.parametrize('seed', range(6))
@pytest.mark.parametrize('group_size', [1, 2])
def test_rectangle_maximum_is_each_bins_maximum_at_its_first_maximal_pixel(seed, group_size):
    rng = numpy.random.RandomState(seed)
    n, c, height, width, r, outh, outw = 2, 3, 11, 17, 5, 3, 4
    groups = group_size ** 2
    x = rng.randint(-2, 3, (n, c * groups, height, width)).astype(numpy.float32)  # many ties
    roi_indices = rng.randint(0, n, r)
    y_bins, x_bins = _bins(rng, r, outh, height), _bins(rng, r, outw, width)
    bin_groups = (numpy.arange(outh)[:, None] * group_size // outh * group_size
                  + numpy.arange(outw)[None, :] * group_size // outw)
    mask = rng.rand(r * outh * outw) < 0.8

    y, taps = rectangle_maximum(x, groups, roi_indices, y_bins, x_bins, bin_groups,
                                (outh, outw), True, mask)

    expected, where = _brute_force(x, groups, roi_indices, y_bins, x_bins, bin_groups)
    numpy.testing.assert_array_equal(y, expected)
    rows = taps.rows[:, 0].reshape(r, outh, outw, c).transpose(0, 3, 1, 2)
    weights = taps.weights[:, 0].reshape(r, outh, outw, c).transpose(0, 3, 1, 2)
    present = where >= 0
    group = numpy.broadcast_to(bin_groups, where.shape)
    image = numpy.broadcast_to(roi_indices[:, None, None, None], where.shape)
    numpy.testing.assert_array_equal(
        rows[present], ((image * height * width + where) * groups + group)[present])
    numpy.testing.assert_array_equal(
        weights, present * mask.reshape(r, 1, outh, outw).astype(numpy.float32))

    y_alone, no_taps = rectangle_maximum(x, groups, roi_indices, y_bins, x_bins, bin_groups,
                                         (outh, outw), False)
    assert no_taps is None
    numpy.testing.assert_array_equal(y_alone, expected)


def test_rectangle_maximum_of_no_roi_is_empty():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    empty = numpy.zeros((0, 2), numpy.int64)
    y, taps = rectangle_maximum(x, 1, numpy.zeros(0, numpy.int64), (empty, empty),
                                (empty, empty), numpy.zeros((2, 2), numpy.int64), (2, 2), True)
    assert y.shape == (0, 2, 2, 2) and taps.rows.shape == (0, 1, 2)
