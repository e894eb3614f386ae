"""LightHeadRCNNResNet101Head: its layers, the pooled bins, bins outside the map."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework.testing.gradient_check import check_backward
from vision.models.detection.light_head_rcnn import LightHeadRCNNResNet101Head


def _head():
    head = LightHeadRCNNResNet101Head(4, roi_size=2, spatial_scale=0.5, in_channels=6)
    rng = numpy.random.RandomState(1)
    for _, param in sorted(head.namedparams()):
        param.array[...] = rng.standard_normal(param.array.shape) * 0.3
    return head


def test_layers_and_outputs():
    head = LightHeadRCNNResNet101Head(81, roi_size=7, spatial_scale=1 / 16)
    assert head.global_context_module.col_max.W.shape == (256, 2048, 15, 1)
    assert head.global_context_module.row.W.shape == (490, 256, 15, 1)
    assert head.fc1.W.shape == (2048, 490) and head.score.W.shape == (81, 2048)
    assert head.cls_loc.W.shape == (324, 2048)
    head = _head()
    x = numpy.random.RandomState(0).standard_normal((2, 6, 5, 7)).astype(numpy.float32)
    rois = numpy.array([[0, 0, 8, 10], [2, 4, 9, 13], [1, 1, 3, 3]], numpy.float32)
    indices = numpy.array([0, 1, 1], numpy.int32)
    roi_cls_locs, roi_scores = head(x, rois, indices)
    assert roi_cls_locs.shape == (3, 16) and roi_scores.shape == (3, 4)
    pool = F.ps_roi_max_align_2d(head.global_context_module(x), rois, indices, (10, 2, 2), 0.5,
                                 2, sampling_ratio=2)
    fc1 = numpy.maximum(pool.array.reshape(3, -1) @ head.fc1.W.array.T + head.fc1.b.array, 0)
    numpy.testing.assert_allclose(roi_scores.array, fc1 @ head.score.W.array.T
                                  + head.score.b.array, rtol=1e-5, atol=1e-5)


def test_bins_outside_the_map_are_zero():
    # ChainerCV's head sets the -inf of bins without points to 0
    head = _head()
    x = numpy.random.RandomState(0).standard_normal((1, 6, 5, 7)).astype(numpy.float32)
    outside = numpy.array([[-40, -40, -10, -10]], numpy.float32)
    roi_cls_locs, roi_scores = head(x, outside, numpy.zeros(1, numpy.int32))
    fc1 = numpy.maximum(head.fc1.b.array, 0)
    numpy.testing.assert_allclose(roi_scores.array[0], fc1 @ head.score.W.array.T
                                  + head.score.b.array, rtol=1e-5, atol=1e-5)


def test_gradient():
    head = _head()
    rng = numpy.random.RandomState(2)
    x = rng.standard_normal((1, 6, 4, 5)).astype(numpy.float32)
    rois = numpy.array([[0.5, 0.3, 6.2, 7.7], [-30, -30, -20, -20]], numpy.float32)
    indices = numpy.zeros(2, numpy.int32)
    grads = (rng.standard_normal((2, 16)).astype(numpy.float32),
             rng.standard_normal((2, 4)).astype(numpy.float32))
    check_backward(lambda h: head(h, rois, indices), x, grads, params=tuple(head.params()),
                   dtype=numpy.float64, atol=1e-3, rtol=1e-3)
