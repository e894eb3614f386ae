"""mask_head_loss_pre and mask_head_loss_post: the foreground regions kept level by level with
the grid of the mask they overlap most, and the sigmoid cross entropy computed by hand, with
its gradient; empty inputs and mismatched arguments."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework.testing.gradient_check import check_backward
from vision.models.instance.mask_rcnn import mask_head_loss_post, mask_head_loss_pre, mask_to_segm


def _levels(*arrays, dtype, width=None):
    shape = (0,) if width is None else (0, width)
    return [numpy.asarray(a, dtype).reshape((-1,) + shape[1:]) if a is not None
            else numpy.zeros(shape, dtype) for a in arrays]


def test_foreground_regions_take_the_mask_they_overlap_most():
    gt_masks = [numpy.zeros((2, 20, 24), bool), numpy.zeros((0, 10, 10), bool)]
    gt_masks[0][0, 2:10, 2:10] = True
    gt_masks[0][1, 8:18, 6:20] = True
    gt_bboxes = [numpy.array([[2, 2, 10, 10], [8, 6, 18, 20]], numpy.float32),
                 numpy.zeros((0, 4), numpy.float32)]
    rois = _levels([[2, 2, 10, 10], [0, 0, 4, 4], [9, 7, 17, 19]],
                   [[3, 3, 9, 12], [1, 1, 3, 3]], None, dtype=numpy.float32, width=4)
    roi_indices = _levels([0, 1, 0], [0, 0], None, dtype=numpy.int32)
    gt_head_labels = _levels([1, 0, 3], [2, 0], None, dtype=numpy.int32)
    mask_rois, mask_roi_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
        rois, roi_indices, gt_masks, gt_bboxes, gt_head_labels, 6)
    assert [len(r) for r in mask_rois] == [2, 1, 0]
    numpy.testing.assert_array_equal(mask_rois[0], [[2, 2, 10, 10], [9, 7, 17, 19]])
    numpy.testing.assert_array_equal(mask_rois[1], [[3, 3, 9, 12]])
    numpy.testing.assert_array_equal(mask_roi_indices[0], [0, 0])
    numpy.testing.assert_array_equal(gt_mask_labels[0], [1, 3])
    numpy.testing.assert_array_equal(gt_mask_labels[1], [2])
    assert gt_segms[0].dtype == numpy.float32 and gt_segms[0].shape == (2, 6, 6)
    assert gt_segms[2].shape == (0, 6, 6) and mask_roi_indices[2].dtype == numpy.int32
    # the first region is the first mask's box: its grid is all ones
    numpy.testing.assert_array_equal(gt_segms[0][0], 1)
    # the third overlaps the second box most (IoU 96/140), the fourth the first (42/76)
    numpy.testing.assert_array_equal(
        gt_segms[0][1], mask_to_segm(gt_masks[0][[1]], mask_rois[0][[1]], 6)[0])
    numpy.testing.assert_array_equal(
        gt_segms[1][0], mask_to_segm(gt_masks[0][[0]], mask_rois[1], 6)[0])
    assert 0 < gt_segms[1][0].sum() < 36


def test_no_foreground_regions_give_empty_levels():
    rois = _levels([[0, 0, 4, 4]], None, dtype=numpy.float32, width=4)
    out = mask_head_loss_pre(rois, _levels([0], None, dtype=numpy.int32),
                             [numpy.zeros((0, 8, 8), bool)], [numpy.zeros((0, 4), numpy.float32)],
                             _levels([0], None, dtype=numpy.int32), 28)
    assert [[len(a) for a in arrays] for arrays in out] == [[0, 0]] * 4
    assert out[2][0].shape == (0, 28, 28)


def test_pre_refuses_foreground_without_boxes_and_mismatched_levels():
    rois = _levels([[0, 0, 4, 4]], dtype=numpy.float32, width=4)
    labels = _levels([1], dtype=numpy.int32)
    with pytest.raises(ValueError, match='image 0 has foreground regions but no ground-truth'):
        mask_head_loss_pre(rois, _levels([0], dtype=numpy.int32),
                           [numpy.zeros((0, 8, 8), bool)], [numpy.zeros((0, 4), numpy.float32)],
                           labels, 28)
    with pytest.raises(ValueError, match='one entry per level, but got 1, 2 and 1'):
        mask_head_loss_pre(rois, labels * 2, [], [], labels, 28)


def _post_inputs():
    rng = numpy.random.RandomState(0)
    segms = rng.standard_normal((3, 4, 2, 2))
    gt_segms = [rng.randint(0, 2, (2, 2, 2)).astype(numpy.float32),
                rng.randint(0, 2, (1, 2, 2)).astype(numpy.float32)]
    gt_mask_labels = [numpy.array([1, 3], numpy.int32), numpy.array([2], numpy.int32)]
    mask_roi_indices = [numpy.array([0, 1], numpy.int32), numpy.array([1], numpy.int32)]
    return segms, mask_roi_indices, gt_segms, gt_mask_labels


def test_post_is_the_mean_sigmoid_cross_entropy_of_each_regions_class():
    segms, mask_roi_indices, gt_segms, gt_mask_labels = _post_inputs()
    loss = mask_head_loss_post(framework.Variable(segms), mask_roi_indices, gt_segms,
                               gt_mask_labels, 2)
    x = segms[[0, 1, 2], [1, 3, 2]]
    t = numpy.concatenate(gt_segms)
    expected = numpy.mean(numpy.log1p(numpy.exp(x)) - t * x)  # -t log s(x) - (1-t) log(1-s(x))
    assert loss.shape == ()
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-12)


def test_post_gradient_is_the_numerical_one():
    segms, mask_roi_indices, gt_segms, gt_mask_labels = _post_inputs()
    check_backward(lambda s: mask_head_loss_post(s, mask_roi_indices, gt_segms, gt_mask_labels,
                                                 2), segms, None, eps=1e-6, atol=1e-8, rtol=1e-6)


def test_post_of_no_regions_is_zero():
    loss = mask_head_loss_post(framework.Variable(numpy.zeros((0, 4, 2, 2), numpy.float32)),
                               [numpy.zeros(0, numpy.int32)], [numpy.zeros((0, 2, 2))],
                               [numpy.zeros(0, numpy.int32)], 1)
    assert float(loss.array) == 0


def test_post_refuses_mismatched_arguments():
    segms, mask_roi_indices, gt_segms, gt_mask_labels = _post_inputs()
    with pytest.raises(ValueError, match='one entry per level, but got 2, 1 and 2'):
        mask_head_loss_post(framework.Variable(segms), mask_roi_indices, gt_segms[:1],
                            gt_mask_labels, 2)
    with pytest.raises(ValueError, match=r'one row per region, 3, but got shape \(2, 4, 2, 2\)'):
        mask_head_loss_post(framework.Variable(segms[:2]), mask_roi_indices, gt_segms,
                            gt_mask_labels, 2)
