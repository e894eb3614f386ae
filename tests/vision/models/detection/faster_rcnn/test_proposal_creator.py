"""ProposalCreator: clipping, min_size, the numbers kept before and after suppression in
training and testing, the order by score."""

from __future__ import annotations

import numpy

import framework
from vision.models.detection.faster_rcnn.utils import ProposalCreator


def _grid(n=10, side=20.):
    """n x n disjoint square anchors of ``side`` on a 30-pixel grid, scores by index."""
    y, x = numpy.meshgrid(numpy.arange(n) * 30., numpy.arange(n) * 30., indexing='ij')
    anchor = numpy.stack((y.ravel(), x.ravel(), y.ravel() + side, x.ravel() + side),
                         axis=1).astype(numpy.float32)
    score = numpy.random.RandomState(0).permutation(n * n).astype(numpy.float32)
    return anchor, score, numpy.zeros_like(anchor)


def test_counts_in_testing_and_training():
    anchor, score, loc = _grid()
    creator = ProposalCreator(n_train_pre_nms=50, n_train_post_nms=30, n_test_pre_nms=20,
                              n_test_post_nms=7)
    with framework.using_config('train', False):
        roi = creator(loc, score, anchor, (300, 300))
    numpy.testing.assert_array_equal(roi, anchor[numpy.argsort(-score)[:7]])
    with framework.using_config('train', True):
        assert len(creator(loc, score, anchor, (300, 300))) == 30
    creator.n_train_post_nms = 0
    with framework.using_config('train', True):
        assert len(creator(loc, score, anchor, (300, 300))) == 50


def test_nms_runs_after_pre_nms_and_before_post_nms():
    anchor, score, loc = _grid(n=2)
    anchor = numpy.concatenate((anchor, anchor + 1))    # each overlaps its copy (IoU 0.82)
    score = numpy.array([8, 7, 6, 5, 4, 3, 2, 1], numpy.float32)
    loc = numpy.zeros_like(anchor)
    with framework.using_config('train', False):
        roi = ProposalCreator(nms_thresh=0.7, n_test_pre_nms=3, n_test_post_nms=10)(
            loc, score, anchor, (100, 100))
        numpy.testing.assert_array_equal(roi, anchor[:3])
        roi = ProposalCreator(nms_thresh=0.9, n_test_pre_nms=0, n_test_post_nms=0)(
            loc, score, anchor, (100, 100))
        assert len(roi) == 8


def test_min_size_is_scaled_and_boxes_are_clipped():
    anchor = numpy.array([[0, 0, 10, 10], [0, 20, 30, 50], [-10, 60, 40, 130]], numpy.float32)
    score = numpy.array([3, 2, 1], numpy.float32)
    loc = numpy.zeros_like(anchor)
    creator = ProposalCreator(min_size=8)
    with framework.using_config('train', False):
        numpy.testing.assert_array_equal(creator(loc, score, anchor, (35, 100), scale=1.),
                                         [[0, 0, 10, 10], [0, 20, 30, 50], [0, 60, 35, 100]])
        numpy.testing.assert_array_equal(creator(loc, score, anchor, (35, 100), scale=2.),
                                         [[0, 20, 30, 50], [0, 60, 35, 100]])


def test_offsets_move_the_anchors():
    anchor = numpy.array([[10, 10, 30, 30]], numpy.float32)
    loc = numpy.array([[0.5, 0, 0, numpy.log(2)]], numpy.float32)
    with framework.using_config('train', False):
        roi = ProposalCreator()(loc, numpy.ones(1, numpy.float32), anchor, (100, 100))
    numpy.testing.assert_allclose(roi, [[20, 0, 40, 40]], atol=1e-5)


def test_chainercvs_defaults():
    creator = ProposalCreator()
    assert (creator.nms_thresh, creator.n_train_pre_nms, creator.n_train_post_nms,
            creator.n_test_pre_nms, creator.n_test_post_nms, creator.force_cpu_nms,
            creator.min_size) == (0.7, 12000, 2000, 6000, 300, False, 16)
    assert ProposalCreator(force_cpu_nms=True).force_cpu_nms is True


def test_boxes_are_clipped_on_every_side():
    anchor = numpy.array([[-5, -7, 20, 30], [80, 90, 130, 140]], numpy.float32)
    score = numpy.array([2, 1], numpy.float32)
    with framework.using_config('train', False):
        roi = ProposalCreator(min_size=1)(numpy.zeros_like(anchor), score, anchor, (100, 120))
    numpy.testing.assert_array_equal(roi, [[0, 0, 20, 30], [80, 90, 100, 120]])


def test_both_sides_must_reach_min_size_which_is_included():
    # Away from the origin, so that a sum of the corners would not pass for a side.
    anchor = numpy.array([[50, 50, 58, 58],      # 8 x 8: kept (sides exactly min_size)
                          [50, 70, 57.9, 90],    # 7.9 high: dropped
                          [70, 50, 90, 57.9],    # 7.9 wide: dropped
                          [70, 70, 90, 90]], numpy.float32)
    score = numpy.array([4, 3, 2, 1], numpy.float32)
    with framework.using_config('train', False):
        roi = ProposalCreator(min_size=4)(numpy.zeros_like(anchor), score, anchor, (200, 200),
                                          scale=2.)
    numpy.testing.assert_array_equal(roi, anchor[[0, 3]])


def test_tied_scores_keep_the_order_of_the_anchors():
    anchor, _, loc = _grid(n=10)
    score = numpy.repeat(numpy.float32([1, 3, 2, 3]), 25)
    with framework.using_config('train', False):
        roi = ProposalCreator(n_test_pre_nms=0, n_test_post_nms=0)(loc, score, anchor,
                                                                   (300, 300))
    order = numpy.concatenate((numpy.arange(25, 50), numpy.arange(75, 100),
                               numpy.arange(50, 75), numpy.arange(25)))
    numpy.testing.assert_array_equal(roi, anchor[order])


def test_one_box_before_or_after_suppression():
    anchor, score, loc = _grid(n=4)
    best = anchor[numpy.argmax(score)][None]
    with framework.using_config('train', False):
        for pre, post in ((1, 0), (0, 1), (1, 1)):
            roi = ProposalCreator(n_test_pre_nms=pre, n_test_post_nms=post)(
                loc, score, anchor, (300, 300))
            numpy.testing.assert_array_equal(roi, best)
