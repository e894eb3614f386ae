"""bbox_head_loss_pre and bbox_head_loss_post on regions whose targets and losses can be worked
out by hand: foreground and background, offsets divided by the deviations, the sampling, the
levels kept, and the averages over regions and images."""

from __future__ import annotations

import math

import numpy

import framework
from vision.models.detection.fpn import bbox_head_loss_post, bbox_head_loss_pre

STD = (0.1, 0.2)
EMPTY = numpy.zeros((0, 4), numpy.float32)


def _rois():
    rois = [numpy.array([[0, 0, 10, 12],    # IoU 100/120 with the box: its label + 1
                         [0, 0, 10, 30]],   # IoU 1/3: background
                        numpy.float32),
            numpy.array([[50, 50, 60, 60]], numpy.float32),  # background
            EMPTY, EMPTY, EMPTY]
    roi_indices = [numpy.array([0, 0], numpy.int32), numpy.array([0], numpy.int32)] + \
        [numpy.zeros(0, numpy.int32)] * 3
    return rois, roi_indices


def test_targets():
    rois, roi_indices = _rois()
    out_rois, out_indices, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, roi_indices, STD, [numpy.array([[0, 0, 10, 10]], numpy.float32)],
        [numpy.array([2], numpy.int32)])
    assert [len(r) for r in out_rois] == [2, 1, 0, 0, 0]
    numpy.testing.assert_array_equal(numpy.concatenate(out_rois), numpy.concatenate(rois))
    numpy.testing.assert_array_equal(numpy.concatenate(out_indices), [0, 0, 0])
    numpy.testing.assert_array_equal(gt_labels[0], [3, 0])
    numpy.testing.assert_array_equal(gt_labels[1], [0])
    # centre (5, 6) to (5, 5) in a region 12 wide: -1/12 / 0.1; width 12 to 10: log(10/12) / 0.2
    numpy.testing.assert_allclose(gt_locs[0][0], [0, -1 / 1.2, 0, math.log(10 / 12) / 0.2],
                                  rtol=1e-5, atol=1e-7)
    assert gt_locs[0].dtype == numpy.float32 and gt_labels[0].dtype == numpy.int32


def test_sampling_keeps_the_foreground_and_some_background():
    rois, roi_indices = _rois()
    for seed in range(3):
        out_rois, _, _, gt_labels = bbox_head_loss_pre(
            rois, roi_indices, STD, [numpy.array([[0, 0, 10, 10]], numpy.float32)],
            [numpy.array([2], numpy.int32)], n_sample=2, fg_ratio=0.5,
            rng=numpy.random.default_rng(seed))
        labels = numpy.concatenate(gt_labels)
        assert sorted(labels) == [0, 3] and sum(len(r) for r in out_rois) == 2


def test_an_image_without_boxes_is_background():
    rois, roi_indices = _rois()
    _, _, gt_locs, gt_labels = bbox_head_loss_pre(rois, roi_indices, STD, [EMPTY],
                                                  [numpy.zeros(0, numpy.int32)])
    assert (numpy.concatenate(gt_labels) == 0).all()
    assert (numpy.concatenate(gt_locs) == 0).all()


def test_losses():
    # image 0: regions 0 (label 3) and 1, 2 (background); image 1: region 3 (background)
    roi_indices = [numpy.array([0, 0, 1], numpy.int32), numpy.array([0], numpy.int32)]
    gt_labels = [numpy.array([3, 0, 0], numpy.int32), numpy.array([0], numpy.int32)]
    gt_locs = [numpy.zeros((3, 4), numpy.float32), numpy.zeros((1, 4), numpy.float32)]
    locs = numpy.zeros((4, 4, 4), numpy.float32)
    locs[0, 3] = [0.5, 0, 0, 3]  # smooth L1 (beta 1): 0.125 + 2.5
    locs[0, 0] = 7  # another class's offsets: no loss
    locs = framework.Variable(locs)
    confs = framework.Variable(numpy.zeros((4, 4), numpy.float32))
    loc_loss, conf_loss = bbox_head_loss_post(locs, confs, roi_indices, gt_locs, gt_labels, 2)
    numpy.testing.assert_allclose(loc_loss.array, 2.625 / 3 / 2, rtol=1e-5)
    numpy.testing.assert_allclose(conf_loss.array, 2 * math.log(4) / 2, rtol=1e-5)
    loc_loss.backward()
    numpy.testing.assert_allclose(locs.grad[0, 3], [0.5 / 6, 0, 0, 1 / 6], rtol=1e-5)
    assert numpy.count_nonzero(locs.grad) == 2


def test_no_regions_give_zero_losses():
    locs = framework.Variable(numpy.zeros((0, 4, 4), numpy.float32))
    confs = framework.Variable(numpy.zeros((0, 4), numpy.float32))
    empty = [numpy.zeros(0, numpy.int32)]
    loc_loss, conf_loss = bbox_head_loss_post(locs, confs, empty, [EMPTY], empty, 1)
    assert float(loc_loss.array) == float(conf_loss.array) == 0
