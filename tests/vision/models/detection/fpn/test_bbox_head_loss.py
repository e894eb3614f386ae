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


def _crowd(rng, n_fg, n_bg, label=0):
    """``n_fg`` copies of the box ``[0, 0, 10, 10]`` and ``n_bg`` regions far from it, one
    image, spread over two levels."""
    corner = rng.uniform(100, 900, (n_bg, 2))
    roi = numpy.concatenate((numpy.tile(numpy.float32([[0, 0, 10, 10]]), (n_fg, 1)),
                             numpy.concatenate((corner, corner + 10), 1))).astype(numpy.float32)
    half = len(roi) // 2
    return ([roi[:half], roi[half:]], [numpy.zeros(half, numpy.int32),
                                       numpy.zeros(len(roi) - half, numpy.int32)],
            [numpy.float32([[0, 0, 10, 10]])], [numpy.int32([label])])


def test_chainercvs_sample_by_default_exactly_its_shares_without_replacement():
    # 200 foreground regions of class 0 (label 1) and 600 background: 512 samples, a quarter
    # foreground at most: 128 and 384, each region at most once.
    rois, roi_indices, bboxes, labels = _crowd(numpy.random.default_rng(0), 200, 600)
    out_rois, out_indices, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, roi_indices, STD, bboxes, labels, rng=numpy.random.default_rng(1))
    label = numpy.concatenate(gt_labels)
    assert (label == 1).sum() == 128 and (label == 0).sum() == 384 and len(label) == 512
    background = numpy.concatenate(out_rois)[label == 0]
    assert len(numpy.unique(background, axis=0)) == 384
    # fewer than their shares: all are kept
    rois, roi_indices, bboxes, labels = _crowd(numpy.random.default_rng(0), 100, 300)
    gt_labels = bbox_head_loss_pre(rois, roi_indices, STD, bboxes, labels)[3]
    assert (numpy.concatenate(gt_labels) == 1).sum() == 100
    assert (numpy.concatenate(gt_labels) == 0).sum() == 300


def test_the_sample_is_drawn_from_the_given_generator():
    rois, roi_indices, bboxes, labels = _crowd(numpy.random.default_rng(2), 50, 100)

    def sample(seed):
        out = bbox_head_loss_pre(rois, roi_indices, STD, bboxes, labels, n_sample=40,
                                 rng=numpy.random.default_rng(seed))
        return numpy.concatenate(out[0])

    numpy.random.seed(0)
    first = sample(5)
    numpy.testing.assert_array_equal(sample(5), first)
    assert not numpy.array_equal(sample(6), first)


def test_an_iou_exactly_at_the_threshold_is_foreground_and_regions_come_out_float32():
    # IoU 1/2 exactly (a binary fraction); the regions given in float64.
    rois = [numpy.float64([[0, 0, 10, 5], [0, 0, 10, 4.9]])]
    out_rois, _, gt_locs, gt_labels = bbox_head_loss_pre(
        rois, [numpy.int32([0, 0])], STD, [numpy.float32([[0, 0, 10, 10]])],
        [numpy.int32([4])])
    numpy.testing.assert_array_equal(gt_labels[0], [5, 0])
    assert out_rois[0].dtype == numpy.float32 and gt_locs[0].dtype == numpy.float32


def test_each_image_is_averaged_over_its_own_regions():
    # Three images of 1, 2 and 3 regions: each region's classification loss is log 3 (uniform
    # logits over 3 classes), a foreground region's localisation loss |d| - 0.5 (d = 2, 1.5),
    # and each image's sums are divided by its own number of regions.
    n_class = 3
    roi_indices = [numpy.int32([0, 1, 1, 2, 2, 2])]
    gt_labels = [numpy.int32([1, 1, 0, 2, 0, 0])]
    gt_locs = [numpy.zeros((6, 4), numpy.float32)]
    loc = numpy.zeros((6, n_class, 4), numpy.float32)
    loc[0, 1, 0], loc[1, 1, 0], loc[3, 2, 0] = 2, 2, 1.5
    conf = numpy.zeros((6, n_class), numpy.float32)
    loc_loss, conf_loss = bbox_head_loss_post(framework.Variable(loc), framework.Variable(conf),
                                              roi_indices, gt_locs, gt_labels, batchsize=3)
    numpy.testing.assert_allclose(loc_loss.array, (1.5 / 1 + 1.5 / 2 + 1 / 3) / 3, rtol=1e-6)
    numpy.testing.assert_allclose(conf_loss.array, math.log(n_class), rtol=1e-6)
    # float64 offsets are taken as float32
    loss64 = bbox_head_loss_post(framework.Variable(loc), framework.Variable(conf), roi_indices,
                                 [gt_locs[0].astype(numpy.float64)], gt_labels, batchsize=3)
    assert loss64[0].dtype == numpy.float32 and float(loss64[0].array) == float(loc_loss.array)
