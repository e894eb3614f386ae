"""generate_anchor_base (ChainerCV's nine anchors of base 16) and enumerate_shifted_anchor."""

from __future__ import annotations

import numpy

from framework import backend
from framework.testing.emulated_device import EmulatedArray
from vision.models.detection.faster_rcnn.utils import (
    enumerate_shifted_anchor,
    generate_anchor_base,
)

# ChainerCV 0.13's generate_anchor_base() (base 16, ratios 0.5, 1, 2, scales 8, 16, 32).
CHAINERCV_ANCHORS = numpy.array([
    [-37.254833, -82.50967, 53.254833, 98.50967],
    [-82.50967, -173.01933, 98.50967, 189.01933],
    [-173.01933, -354.03867, 189.01933, 370.03867],
    [-56., -56., 72., 72.],
    [-120., -120., 136., 136.],
    [-248., -248., 264., 264.],
    [-82.50967, -37.254833, 98.50967, 53.254833],
    [-173.01933, -82.50967, 189.01933, 98.50967],
    [-354.03867, -173.01933, 370.03867, 189.01933]], numpy.float32)


def test_chainercvs_nine_anchors():
    anchor = generate_anchor_base()
    assert anchor.dtype == numpy.float32 and anchor.shape == (9, 4)
    numpy.testing.assert_allclose(anchor, CHAINERCV_ANCHORS, rtol=1e-6)


def test_ratio_is_height_over_width_and_area_is_the_scales():
    anchor = generate_anchor_base(base_size=10, ratios=(4,), anchor_scales=(2,))
    h, w = anchor[0, 2] - anchor[0, 0], anchor[0, 3] - anchor[0, 1]
    numpy.testing.assert_allclose((h / w, h * w), (4, 400), rtol=1e-5)
    numpy.testing.assert_allclose((anchor[0, :2] + anchor[0, 2:]) / 2, (5, 5))


def test_shifted_anchors_are_cell_major():
    base = generate_anchor_base(ratios=(1,), anchor_scales=(1, 2))
    anchor = enumerate_shifted_anchor(base, 16, 2, 3)
    assert anchor.shape == (2 * 3 * 2, 4) and anchor.dtype == numpy.float32
    # anchor a of cell (y, x) is row (y * 3 + x) * 2 + a
    numpy.testing.assert_array_equal(anchor[(1 * 3 + 2) * 2 + 1], base[1] + [16, 32, 16, 32])
    numpy.testing.assert_array_equal(anchor[:2], base)


def test_anchors_depend_on_the_values_of_ratios_and_scales_not_their_dtype():
    # Computed in float64 and rounded once to float32: float32 ratios and scales give the
    # anchors of the same values in float64 (float32 arithmetic would differ in the last bits).
    ratios, scales = numpy.float32([0.3, 0.7, 3]), numpy.float32([1.1, 3.3, 7.7])
    expected = generate_anchor_base(7, ratios.astype(numpy.float64), scales.astype(numpy.float64))
    numpy.testing.assert_array_equal(generate_anchor_base(7, ratios, scales), expected)
    numpy.testing.assert_array_equal(generate_anchor_base(7, ratios.tolist(), scales), expected)
    numpy.testing.assert_array_equal(generate_anchor_base(7, ratios, scales.tolist()), expected)


def test_shifted_anchors_stay_on_the_device_of_the_base():
    base = generate_anchor_base(ratios=(1,), anchor_scales=(1, 2))
    anchor = enumerate_shifted_anchor(backend.to_device('@emulated', base), 16, 2, 3)
    assert isinstance(anchor, EmulatedArray) and anchor.dtype == numpy.float32
    numpy.testing.assert_array_equal(backend.to_cpu(anchor),
                                     enumerate_shifted_anchor(base, 16, 2, 3))
