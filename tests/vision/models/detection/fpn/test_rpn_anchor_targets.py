"""The anchor labels and offsets behind rpn_loss, one image at a time: the bounds of the image
and of the thresholds, the anchor of greatest IoU of each box, and the sampling's counts."""

from __future__ import annotations

import importlib

import numpy
import pytest

import framework
from vision.models.detection.fpn import rpn_loss
from vision.models.detection.fpn.box_coding import encode_bbox
from vision.models.detection.fpn.rpn_loss import _anchor_targets

# the module (the package's name rpn_loss is the function)
rpn_loss_module = importlib.import_module('vision.models.detection.fpn.rpn_loss')


def _targets(anchor, size, bbox, fg_thresh=0.7, bg_thresh=0.3, n_sample=256, fg_ratio=0.25,
             seed=0):
    return _anchor_targets(numpy.float32(anchor), size, numpy.float32(bbox).reshape(-1, 4),
                           fg_thresh, bg_thresh, n_sample, fg_ratio,
                           numpy.random.default_rng(seed))


def test_chainercvs_defaults_and_float32_anchors_reach_the_targets(monkeypatch):
    # rpn_loss passes ChainerCV's defaults on, and the anchors of all levels as one float32
    # array (float64 anchors are cast), the boxes and sizes of each image in turn.
    seen = []

    def spy(anchor, size, bbox, *args):
        seen.append((anchor, size, bbox, args[:-1]))
        return _anchor_targets(anchor, size, bbox, *args)

    monkeypatch.setattr(rpn_loss_module, '_anchor_targets', spy)
    anchors = [numpy.float64([[0, 0, 10, 10], [0, 0, 20, 20]]), numpy.float64([[5, 5, 9, 9]])]
    bboxes = [numpy.float32([[0, 0, 10, 10]]), numpy.zeros((0, 4), numpy.float32)]
    locs = [framework.Variable(numpy.zeros((2, 2, 4), numpy.float32)),
            framework.Variable(numpy.zeros((2, 1, 4), numpy.float32))]
    confs = [framework.Variable(numpy.zeros((2, 2), numpy.float32)),
             framework.Variable(numpy.zeros((2, 1), numpy.float32))]
    rpn_loss(locs, confs, anchors, [(30, 30), (25, 40)], bboxes)
    assert [size for _, size, _, _ in seen] == [(30, 30), (25, 40)]
    for (anchor, _, bbox, args), expected in zip(seen, bboxes):
        assert anchor.dtype == numpy.float32
        numpy.testing.assert_array_equal(anchor, numpy.concatenate(anchors))
        numpy.testing.assert_array_equal(bbox, expected)
        assert args == (0.7, 0.3, 256, 0.25)


def test_the_bounds_of_the_image_and_of_the_thresholds():
    # The image is 20 x 30; IoUs that are binary fractions are exact in float32.
    bbox = [[0, 0, 10, 10]]
    anchor = [[0, 0, 10, 10],      # on the top-left corner: inside; IoU 1: positive
              [10, 20, 20, 30],    # ends on the bottom-right corner: outside, not negative
              [0, 0, 7.5, 10],     # IoU exactly 0.75 = fg_thresh: positive
              [0, 0, 10, 2.5],     # IoU exactly 0.25 = bg_thresh: neither
              [0, 0, 10, 2],       # IoU 0.2: negative
              [12, 0, 19, 8]]      # IoU 0: negative
    gt_loc, label = _targets(anchor, (20, 30), bbox, fg_thresh=0.75, bg_thresh=0.25)
    numpy.testing.assert_array_equal(label, [1, -1, 1, -1, 0, 0])
    assert label.dtype == numpy.int32 and gt_loc.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        gt_loc, numpy.concatenate([encode_bbox(numpy.float32(anchor[:1]), numpy.float32(bbox[:1])),
                                   numpy.zeros((1, 4), numpy.float32),
                                   encode_bbox(numpy.float32(anchor[2:3]),
                                               numpy.float32(bbox[:1])),
                                   numpy.zeros((3, 4), numpy.float32)]))


def test_each_box_makes_its_anchors_of_greatest_iou_positive():
    # The second box's best anchors (two, tied) overlap it by 1/2 only, and the first box's
    # best by 1: every box has its own best, which is not the best of all pairs.
    bbox = [[0, 0, 10, 10], [40, 40, 50, 50]]
    anchor = [[0, 0, 10, 10], [40, 40, 50, 60], [30, 40, 50, 50], [40, 40, 50, 44],
              [60, 60, 70, 70]]
    gt_loc, label = _targets(anchor, (100, 100), bbox)
    numpy.testing.assert_array_equal(label, [1, 1, 1, -1, 0])
    numpy.testing.assert_array_equal(
        gt_loc[1:3], encode_bbox(numpy.float32(anchor[1:3]), numpy.float32([bbox[1]] * 2)))


def test_without_boxes_every_anchor_inside_is_negative():
    gt_loc, label = _targets([[0, 0, 10, 10], [5, 5, 20, 20]], (15, 30), numpy.zeros((0, 4)))
    numpy.testing.assert_array_equal(label, [0, -1])
    assert not gt_loc.any()


@pytest.mark.parametrize('seed', [0, 1])
def test_the_sample_takes_exactly_its_share_of_positives_and_negatives(seed):
    # 100 positives (copies of the box) and 200 negatives; 120 samples, a quarter positive:
    # 30 positives stay, 70 are ignored; 90 negatives are drawn, 110 ignored, none twice.
    rng = numpy.random.default_rng(seed)
    corner = rng.uniform(200, 800, (200, 2))
    anchor = numpy.concatenate((numpy.tile([[0, 0, 10, 10]], (100, 1)),
                                numpy.concatenate((corner, corner + 10), axis=1)))
    gt_loc, label = _targets(anchor, (1000, 1000), [[0, 0, 10, 10]], n_sample=120, seed=seed)
    assert set(numpy.unique(label).tolist()) == {-1, 0, 1}
    assert (label[:100] == 1).sum() == 30 and (label[:100] == -1).sum() == 70
    assert (label[100:] == 0).sum() == 90 and (label[100:] == -1).sum() == 110
    # fewer than its share: all are kept
    _, label = _targets(anchor[95:110], (1000, 1000), [[0, 0, 10, 10]], n_sample=120)
    numpy.testing.assert_array_equal(label, [1] * 5 + [0] * 10)


def test_the_loss_is_computed_on_float32_anchors():
    # Anchors given in float64 are used as their float32 values: the offsets and the loss are
    # those of the float32 anchors, bit for bit.
    rng = numpy.random.default_rng(3)
    corner = rng.uniform(0, 50, (40, 2))
    anchor = numpy.concatenate((corner, corner + rng.uniform(5, 30, (40, 2))), axis=1)
    bbox = [numpy.float32([[3.3, 4.1, 21.7, 30.9], [20.2, 10.6, 47.1, 39.3]])]
    loc = rng.normal(0, 0.2, (1, 40, 4)).astype(numpy.float32)
    conf = rng.normal(0, 1, (1, 40)).astype(numpy.float32)

    def losses(anchors):
        return [float(v.array) for v in rpn_loss(
            [framework.Variable(loc)], [framework.Variable(conf)], [anchors], [(80, 80)],
            bbox, rng=numpy.random.default_rng(0))]

    expected = losses(anchor.astype(numpy.float32))
    assert losses(anchor) == expected and expected[0] > 0
