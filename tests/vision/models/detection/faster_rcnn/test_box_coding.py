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
