"""FCISResNet101Head on small score maps: the shapes of both passes, the class scores as the
mean of the larger of the inside and outside scores, the mask scores of the best or the given
class, the second pass on the moved regions, and the gradient of a pass (float64)."""

from __future__ import annotations

import numpy

import framework
import framework.functions as F
import framework.random
from framework.testing.gradient_check import check_backward
from vision.models.detection.faster_rcnn import loc2bbox
from vision.models.instance.fcis import FCISResNet101Head

N_CLASS, GROUP, SIZE = 3, 2, 4
IMG_SIZE = (64, 80)


def _head(iter2=True, in_channels=8):
    framework.random.seed(0)
    return FCISResNet101Head(N_CLASS, SIZE, GROUP, 1 / 8, (0., 0., 0., 0.),
                             (0.2, 0.2, 0.5, 0.5), iter2,
                             initialW=framework.initializers.Normal(0.5),
                             in_channels=in_channels, mid_channels=6)


def _inputs():
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 8, 8, 10)).astype(numpy.float32)
    rois = numpy.array([[0, 0, 30, 40], [10, 20, 60, 75], [5, 5, 20, 50]], numpy.float32)
    return x, rois, numpy.array([0, 1, 1], numpy.int32)


def test_the_outputs_of_both_passes():
    head = _head()
    x, rois, roi_indices = _inputs()
    seg, locs, cls, out_rois, out_indices = head(x, rois, roi_indices, IMG_SIZE)
    assert seg.shape == (6, 2, SIZE, SIZE) and locs.shape == (6, 2, 4)
    assert cls.shape == (6, N_CLASS)
    numpy.testing.assert_array_equal(out_rois[:3], rois)
    numpy.testing.assert_array_equal(out_indices, [0, 1, 1, 0, 1, 1])
    moved = loc2bbox(rois, locs.array[:3, 1] * numpy.float32([0.2, 0.2, 0.5, 0.5]))
    moved[:, 0::2] = numpy.clip(moved[:, 0::2], 0, IMG_SIZE[0])
    moved[:, 1::2] = numpy.clip(moved[:, 1::2], 0, IMG_SIZE[1])
    numpy.testing.assert_allclose(out_rois[3:], moved, rtol=1e-6)

    h_cls_seg, h_ag_loc = head.convolve(x)
    pooled = F.ps_roi_average_pooling_2d(h_cls_seg, rois, roi_indices, (N_CLASS * 2, SIZE, SIZE),
                                         1 / 8, GROUP).array.reshape(3, N_CLASS, 2, SIZE, SIZE)
    numpy.testing.assert_allclose(cls.array[:3], pooled.max(axis=2).mean(axis=(2, 3)),
                                  rtol=1e-5)
    best = cls.array[:3].argmax(axis=1)
    numpy.testing.assert_allclose(seg.array[:3], pooled[numpy.arange(3), best], rtol=1e-6)
    loc_maps = F.ps_roi_average_pooling_2d(h_ag_loc, rois, roi_indices, (8, SIZE, SIZE),
                                           1 / 8, GROUP).array
    numpy.testing.assert_allclose(locs.array[:3], loc_maps.mean(axis=(2, 3)).reshape(3, 2, 4),
                                  rtol=1e-5, atol=1e-7)


def test_one_pass_with_the_ground_truth_classes():
    head = _head(iter2=False)
    x, rois, roi_indices = _inputs()
    labels = numpy.array([2, 0, 1], numpy.int32)
    seg, locs, cls, out_rois, _ = head(x, rois, roi_indices, IMG_SIZE, labels)
    assert seg.shape == (3, 2, SIZE, SIZE) and len(out_rois) == 3
    h_cls_seg, _ = head.convolve(x)
    pooled = F.ps_roi_average_pooling_2d(h_cls_seg, rois, roi_indices, (N_CLASS * 2, SIZE, SIZE),
                                         1 / 8, GROUP).array.reshape(3, N_CLASS, 2, SIZE, SIZE)
    numpy.testing.assert_allclose(seg.array, pooled[numpy.arange(3), labels], rtol=1e-6)


def test_the_gradient_of_a_pass_is_the_numerical_one():
    head = _head(iter2=False, in_channels=4)
    for param in head.params():
        param.array = param.array.astype(numpy.float64)
    rng = numpy.random.RandomState(1)
    x = rng.standard_normal((1, 4, 6, 7))
    rois = numpy.array([[3, 4, 40, 50], [10, 9, 30, 20]], numpy.float32)
    roi_indices = numpy.zeros(2, numpy.int32)
    labels = numpy.array([1, 2], numpy.int32)

    def outputs(x):
        seg, locs, cls, _, _ = head(x, rois, roi_indices, (48, 56), labels)
        return seg, locs, cls

    grads = (rng.standard_normal((2, 2, SIZE, SIZE)), rng.standard_normal((2, 2, 4)),
             rng.standard_normal((2, N_CLASS)))
    check_backward(outputs, x, grads, params=tuple(head.params()), eps=1e-6, atol=1e-7,
                   rtol=1e-6)
