"""MaskHead: its levels and outputs' shapes, regions on no level, the gradients of its layers
against numerical ones, and the decoding of each box's grid of its class."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.random
from framework.testing.gradient_check import check_backward
from vision.models.instance.mask_rcnn import MaskHead, segm_to_mask

from .conftest import SCALES


def _head(n_class=3, channels=4):
    framework.random.seed(0)
    return MaskHead(n_class, SCALES, channels=channels)


def test_each_region_is_pooled_on_its_level_into_a_grid_of_28():
    head = _head()
    hs = [numpy.full((1, 4, 16, 16), level, numpy.float32) for level in range(5)]
    rois, roi_indices, order = head.distribute(
        numpy.array([[0, 0, 400, 400], [0, 0, 20, 20], [0, 0, 112, 112]], numpy.float32),
        numpy.zeros(3, numpy.int32))
    assert [len(r) for r in rois] == [1, 1, 1, 0, 0]
    numpy.testing.assert_array_equal(order, [2, 0, 1])
    pooled = head.pool(hs, rois, roi_indices)
    assert pooled.shape == (3, 4, 14, 14)
    numpy.testing.assert_array_equal(pooled.array[:, 0, 0, 0], [0, 1, 2])
    segms = head(hs, rois, roi_indices)
    assert segms.shape == (3, 3, 28, 28) and segms.dtype == numpy.float32


def test_no_regions_give_an_empty_grid():
    head = _head()
    hs = [numpy.ones((1, 4, 4, 4), numpy.float32)] * 5
    rois, roi_indices, order = head.distribute(numpy.zeros((0, 4), numpy.float32),
                                               numpy.zeros(0, numpy.int32))
    assert order.shape == (0,)
    segms = head(hs, rois, roi_indices)
    assert segms.shape == (0, 3, 28, 28) and segms.dtype == numpy.float32


def test_the_gradients_are_the_numerical_ones():
    head = _head(n_class=2, channels=2)
    rng = numpy.random.RandomState(0)
    for param in head.params():
        # biases of zero would put conv5's outputs exactly on ReLU's kink where conv4's are
        # all zero
        param.array = rng.standard_normal(param.shape).astype(numpy.float32)
    pooled = rng.standard_normal((2, 2, 14, 14)).astype(numpy.float32)
    grad = rng.standard_normal((2, 2, 28, 28)).astype(numpy.float32)
    check_backward(head.classify, pooled, grad, params=tuple(head.params()),
                   dtype=numpy.float64, eps=1e-4, atol=1e-5, rtol=1e-4)


def test_decode_pastes_each_boxs_grid_of_its_class():
    head = _head()
    rng = numpy.random.RandomState(0)
    segms = [rng.uniform(size=(2, 3, 28, 28)).astype(numpy.float32),
             numpy.zeros((0, 3, 28, 28), numpy.float32)]
    bboxes = [numpy.array([[2, 3, 40, 30], [10, 0, 35, 50]], numpy.float32),
              numpy.zeros((0, 4), numpy.float32)]
    labels = [numpy.array([1, 0], numpy.int32), numpy.zeros(0, numpy.int32)]
    masks = head.decode(segms, bboxes, labels, [(40, 48), (5, 6)])
    expected = segm_to_mask(segms[0][[0, 1], [2, 1]], bboxes[0], (40, 48))
    numpy.testing.assert_array_equal(masks[0], expected)
    assert masks[0].any()
    assert masks[1].dtype == bool and masks[1].shape == (0, 5, 6)


def test_decode_needs_one_entry_per_image():
    with pytest.raises(ValueError, match='one entry per image, but got 1, 1, 1 and 2'):
        _head().decode([numpy.zeros((0, 3, 28, 28))], [numpy.zeros((0, 4))],
                       [numpy.zeros(0, numpy.int32)], [(4, 4), (5, 5)])
