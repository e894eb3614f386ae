"""loc2bbox and bbox2loc: hand-computed values, the round trip, empty input."""

from __future__ import annotations

import numpy

from vision.models.detection.faster_rcnn.utils import bbox2loc, loc2bbox


def test_bbox2loc_by_hand():
    src = numpy.array([[0, 0, 10, 20]], numpy.float32)       # centre (5, 10), size (10, 20)
    dst = numpy.array([[2, 4, 22, 14]], numpy.float32)       # centre (12, 9), size (20, 10)
    numpy.testing.assert_allclose(bbox2loc(src, dst),
                                  [[0.7, -0.05, numpy.log(2.), numpy.log(0.5)]], rtol=1e-6)


def test_loc2bbox_by_hand():
    src = numpy.array([[0, 0, 10, 20]], numpy.float32)
    loc = numpy.array([[0.7, -0.05, numpy.log(2.), numpy.log(0.5), 0, 0, 0, 0]], numpy.float32)
    numpy.testing.assert_allclose(loc2bbox(src, loc), [[2, 4, 22, 14, 0, 0, 10, 20]],
                                  rtol=1e-6, atol=1e-5)


def test_round_trip():
    rng = numpy.random.RandomState(0)
    yx = rng.uniform(0, 100, (50, 2))
    hw = rng.uniform(1, 50, (50, 2))
    src = numpy.hstack((yx, yx + hw)).astype(numpy.float32)
    dst = (src + rng.uniform(-10, 10, (50, 4))).astype(numpy.float32)
    dst[:, 2:] = numpy.maximum(dst[:, 2:], dst[:, :2] + 1)
    loc = bbox2loc(src, dst)
    assert loc.dtype == numpy.float32 and loc.shape == (50, 4)
    numpy.testing.assert_allclose(loc2bbox(src, loc), dst, atol=1e-3)


def test_empty_and_dtype():
    out = loc2bbox(numpy.zeros((0, 4), numpy.float32), numpy.zeros((0, 4), numpy.float32))
    assert out.shape == (0, 4) and out.dtype == numpy.float32
    out = loc2bbox(numpy.array([[0, 0, 4, 4]]), numpy.zeros((1, 4), numpy.float64))
    assert out.dtype == numpy.float64


def test_a_degenerate_source_box_stays_finite():
    src = numpy.array([[5, 5, 5, 5]], numpy.float32)
    assert numpy.isfinite(bbox2loc(src, numpy.array([[0, 0, 10, 10]], numpy.float32))).all()


def _decode_one(src, loc):
    """loc2bbox of one group of four offsets, written out from the docstring (float64)."""
    h, w = src[:, 2] - src[:, 0], src[:, 3] - src[:, 1]
    cy, cx = src[:, 0] + h / 2 + loc[:, 0] * h, src[:, 1] + w / 2 + loc[:, 1] * w
    h, w = h * numpy.exp(loc[:, 2]), w * numpy.exp(loc[:, 3])
    return numpy.stack((cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2), axis=1)


def test_each_group_of_four_offsets_decodes_one_box():
    rng = numpy.random.RandomState(1)
    src = numpy.array([[0, 0, 10, 20], [5, -3, 9, 30]], numpy.float64)
    loc = rng.uniform(-1, 1, (2, 12))
    out = loc2bbox(src, loc)
    assert out.shape == (2, 12)
    for k in range(3):
        numpy.testing.assert_allclose(out[:, 4 * k:4 * k + 4],
                                      _decode_one(src, loc[:, 4 * k:4 * k + 4]), rtol=1e-12)


def test_no_source_box_gives_no_box_of_each_group():
    out = loc2bbox(numpy.zeros((0, 4), numpy.float32), numpy.zeros((0, 8), numpy.float32))
    assert out.shape == (0, 8) and out.dtype == numpy.float32


def test_loc2bbox_computes_in_the_dtype_of_loc():
    # float32 offsets: the boxes are float32 and the float32 arithmetic of the formula, bit
    # for bit (not float64 arithmetic rounded at the end).
    rng = numpy.random.RandomState(2)
    yx = rng.uniform(0, 100, (200, 2))
    src = numpy.hstack((yx, yx + rng.uniform(1, 50, (200, 2)))).astype(numpy.float32)
    loc = rng.uniform(-0.5, 0.5, (200, 4)).astype(numpy.float32)
    out = loc2bbox(src, loc)
    assert out.dtype == numpy.float32
    half = numpy.float32(0.5)
    h, w = src[:, 2:3] - src[:, 0:1], src[:, 3:4] - src[:, 1:2]
    cy, cx = loc[:, 0:1] * h + (src[:, 0:1] + half * h), loc[:, 1:2] * w + (src[:, 1:2] + half * w)
    h, w = numpy.exp(loc[:, 2:3]) * h, numpy.exp(loc[:, 3:4]) * w
    numpy.testing.assert_array_equal(
        out, numpy.hstack((cy - half * h, cx - half * w, cy + half * h, cx + half * w)))


def test_a_degenerate_source_box_is_raised_to_the_machine_epsilon():
    # ChainerCV: height and width below eps of the dtype become eps.
    for dtype in (numpy.float32, numpy.float64):
        src = numpy.array([[5, 5, 5, 5]], dtype)
        eps = numpy.finfo(dtype).eps
        loc = bbox2loc(src, numpy.array([[0, 2, 10, 8]], dtype))
        assert loc.dtype == dtype
        numpy.testing.assert_allclose(loc, [[0, 0, numpy.log(10 / eps), numpy.log(6 / eps)]],
                                      rtol=1e-6)
