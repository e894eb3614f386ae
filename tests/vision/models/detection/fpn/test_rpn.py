"""RPN: the anchors and the proposals as ChainerCV's ``fpn.RPN`` makes them (its outputs on
random offsets and objectness in ``chainercv_fpn_decoding.npz``), the shapes of its outputs,
and the limits of training and inference; torchvision's ranking by probability, clipping to the
image and least size."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.models.detection.fpn import RPN

from .conftest import SCALES

SIZES = ((16, 24), (8, 12), (4, 6), (2, 3), (1, 2))


def test_anchors_are_chainercvs(chainercv_decoding):
    anchors = RPN(SCALES, channels=8).anchors(SIZES)
    assert len(anchors) == 5
    for level, anchor in enumerate(anchors):
        assert anchor.dtype == numpy.float32
        numpy.testing.assert_array_equal(anchor, chainercv_decoding[f'anchors/{level}'])


def test_anchors_of_the_first_cell():
    # level 0: stride 4, widths round(4 / sqrt(r)) = 6, 4, 3 and heights round(w * r) = 3, 4, 6
    # units of 32 / 4 pixels, centred on (2, 2); level 1: stride 8, widths 11, 8, 6 and
    # heights round(5.5) = 6 (to even), 8, 12 units of 64 / 8 pixels, centred on (4, 4)
    anchor0, anchor1 = RPN(SCALES, channels=8).anchors(((1, 2), (1, 1)))[:2]
    numpy.testing.assert_array_equal(anchor0[:3], [[-10, -22, 14, 26], [-14, -14, 18, 18],
                                                   [-22, -10, 26, 14]])
    numpy.testing.assert_array_equal(anchor0[3:], anchor0[:3] + [0, 4, 0, 4])
    numpy.testing.assert_array_equal(anchor1, [[-20, -40, 28, 48], [-28, -28, 36, 36],
                                               [-44, -20, 52, 28]])


def test_decode_gives_chainercvs_proposals(chainercv_decoding):
    d = chainercv_decoding
    rpn = RPN(SCALES, channels=8, n_test_pre_nms=int(d['n_pre_nms']),
              n_test_post_nms=int(d['n_post_nms']))
    anchors = [d[f'anchors/{level}'] for level in range(5)]
    locs = [d[f'rpn/locs/{level}'] for level in range(5)]
    confs = [framework.Variable(d[f'rpn/confs/{level}']) for level in range(5)]
    with framework.using_config('train', False):
        rois, roi_indices = rpn.decode(locs, confs, anchors, (1, 3, 64, 96))
    assert rois.dtype == numpy.float32 and roi_indices.dtype == numpy.int32
    numpy.testing.assert_allclose(rois, d['rpn/rois'], rtol=1e-6, atol=1e-4)
    numpy.testing.assert_array_equal(roi_indices, d['rpn/roi_indices'])


def test_decode_keeps_the_limits_of_training_or_inference():
    rpn = RPN(SCALES, channels=8, n_train_pre_nms=30, n_train_post_nms=12, n_test_pre_nms=8,
              n_test_post_nms=5)
    rng = numpy.random.RandomState(0)
    anchors = rpn.anchors(SIZES)
    locs = [0.1 * rng.standard_normal((2, len(a), 4)).astype(numpy.float32) for a in anchors]
    confs = [rng.standard_normal((2, len(a))).astype(numpy.float32) for a in anchors]
    for train, n in ((True, 12), (False, 5)):
        with framework.using_config('train', train):
            rois, roi_indices = rpn.decode(locs, confs, anchors, (2, 3, 64, 96))
        numpy.testing.assert_array_equal(roi_indices, [0] * n + [1] * n)
        assert (rois[:, :2] >= 0).all() and (rois[:, 2:] <= [64, 96]).all()
        assert (rois[:, 2:] > rois[:, :2]).all()


def test_forward_gives_the_outputs_of_every_level():
    rpn = RPN(SCALES, channels=8)
    hs = [numpy.ones((2, 8) + size, numpy.float32) for size in SIZES]
    locs, confs = rpn(hs)
    for (H, W), loc, conf in zip(SIZES, locs, confs):
        assert loc.shape == (2, H * W * 3, 4) and conf.shape == (2, H * W * 3)
        assert loc.dtype == conf.dtype == numpy.float32


def test_ranking_by_probability_ties_saturated_logits_in_the_order_of_the_levels():
    # Logits above 17 all have the float32 sigmoid 1: ranked by probability, the second
    # level's proposal (logit 30) comes after the first level's (logit 20), as torchvision's
    # stable sort keeps them; by logit, before it. Very negative logits do not overflow.
    anchors = [numpy.array([[0, 0, 10, 10], [50, 50, 60, 60]], numpy.float32),
               numpy.array([[20, 20, 40, 40]], numpy.float32)]
    locs = [numpy.zeros((1, 2, 4), numpy.float32), numpy.zeros((1, 1, 4), numpy.float32)]
    confs = [numpy.array([[20., -1000.]], numpy.float32), numpy.array([[30.]], numpy.float32)]
    with framework.using_config('train', False):
        by_logit, _ = RPN(SCALES[:2], channels=8).decode(locs, confs, anchors, (1, 3, 64, 64))
        with numpy.errstate(over='raise'):
            by_probability, _ = RPN(SCALES[:2], channels=8, rank_by_probability=True).decode(
                locs, confs, anchors, (1, 3, 64, 64))
    numpy.testing.assert_array_equal(by_logit[:, 0], [20, 0, 50])
    numpy.testing.assert_array_equal(by_probability[:, 0], [0, 20, 50])


def test_torchvisions_clipping_and_least_size():
    # Clipped to the image (40x30) rather than the input (64x64); a proposal 5e-4 wide is
    # dropped with min_roi_size=1e-3.
    anchors = [numpy.array([[10, 10, 50, 50], [5, 5, 5.0005, 20]], numpy.float32)]
    locs = [numpy.zeros((1, 2, 4), numpy.float32)]
    confs = [numpy.array([[1., 0.]], numpy.float32)]
    rpn = RPN(SCALES[:1], channels=8, clip_to_image=True, min_roi_size=1e-3)
    with framework.using_config('train', False):
        rois, _ = rpn.decode(locs, confs, anchors, (1, 3, 64, 64), [(40, 30)])
        with pytest.raises(ValueError, match='clip_to_image needs image_sizes'):
            rpn.decode(locs, confs, anchors, (1, 3, 64, 64))
    numpy.testing.assert_array_equal(rois, [[10, 10, 40, 30]])
