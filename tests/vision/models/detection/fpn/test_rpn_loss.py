"""rpn_loss on anchors whose labels and losses can be worked out by hand: positives, negatives,
anchors ignored between the thresholds or outside the image, the sampling, images without
boxes, and the gradient."""

from __future__ import annotations

import math

import numpy
import pytest

import framework
from vision.models.detection.fpn import rpn_loss

ANCHORS = numpy.array([[0, 0, 10, 10],    # IoU 1: positive
                       [0, 0, 8, 8],      # IoU 0.64: ignored
                       [20, 20, 30, 30],  # IoU 0: negative
                       [-5, 0, 5, 10],    # outside the image: ignored
                       [0, 0, 10, 40]],   # IoU 0.25: negative
                      numpy.float32)
BBOX = numpy.array([[0, 0, 10, 10]], numpy.float32)
LN2 = math.log(2)
SOFTPLUS1 = math.log(1 + math.e)


def _outputs(n=1):
    loc = numpy.zeros((n, 5, 4), numpy.float32)
    loc[:, 0, 0] = 0.1  # |d| below beta = 1/9: 0.5 * 0.1 ** 2 * 9 = 0.045
    conf = numpy.zeros((n, 5), numpy.float32)
    conf[:, 4] = 1.
    # the levels are concatenated: two levels of 3 and 2 anchors
    return ([framework.Variable(loc[:, :3]), framework.Variable(loc[:, 3:])],
            [framework.Variable(conf[:, :3]), framework.Variable(conf[:, 3:])],
            [ANCHORS[:3], ANCHORS[3:]])


def test_losses_of_labelled_anchors():
    locs, confs, anchors = _outputs()
    loc_loss, conf_loss = rpn_loss(locs, confs, anchors, [(32, 48)], [BBOX])
    # three samples: anchor 0 positive, anchors 2 and 4 negative
    assert loc_loss.dtype == conf_loss.dtype == numpy.float32 and loc_loss.shape == ()
    numpy.testing.assert_allclose(loc_loss.array, 0.045 / 3, rtol=1e-5)
    numpy.testing.assert_allclose(conf_loss.array, (2 * LN2 + SOFTPLUS1) / 3, rtol=1e-5)
    (loc_loss + conf_loss).backward()
    grad = locs[0].grad
    numpy.testing.assert_allclose(grad[0, 0], [0.9 / 3, 0, 0, 0], rtol=1e-5)  # 0.1 * 9 / 3
    assert (grad[0, 1:] == 0).all()
    numpy.testing.assert_allclose(confs[1].grad[0], [0, (1 / (1 + math.e ** -1)) / 3],
                                  rtol=1e-5)


def test_the_images_are_averaged_and_an_image_without_boxes_has_negatives_only():
    locs, confs, anchors = _outputs(2)
    loc_loss, conf_loss = rpn_loss(locs, confs, anchors, [(32, 48), (32, 48)],
                                   [BBOX, numpy.zeros((0, 4), numpy.float32)])
    # the second image: anchors 0, 1, 2 and 4 negative
    numpy.testing.assert_allclose(loc_loss.array, 0.045 / 3 / 2, rtol=1e-5)
    numpy.testing.assert_allclose(
        conf_loss.array, ((2 * LN2 + SOFTPLUS1) / 3 + (3 * LN2 + SOFTPLUS1) / 4) / 2, rtol=1e-5)


def test_an_anchor_of_greatest_iou_is_positive_below_the_threshold():
    locs, confs, anchors = _outputs()
    loc_loss, _ = rpn_loss(locs, confs, anchors, [(32, 48)],
                           [numpy.array([[0, 0, 10, 13]], numpy.float32)])  # IoU 10/13 < 0.7
    assert loc_loss.array > 0


@pytest.mark.parametrize('seed', [0, 1, 2])
def test_sampling(seed):
    locs, confs, anchors = _outputs()
    _, conf_loss = rpn_loss(locs, confs, anchors, [(32, 48)], [BBOX], n_sample=2,
                            fg_ratio=0.5, rng=numpy.random.default_rng(seed))
    # the positive and one of the two negatives
    assert float(conf_loss.array) in (pytest.approx(LN2), pytest.approx((LN2 + SOFTPLUS1) / 2))
