"""AnchorTargetCreator and ProposalTargetCreator: labels, sampling counts, targets, seeds."""

from __future__ import annotations

import numpy
import pytest

from vision.models.detection.faster_rcnn.utils import (
    AnchorTargetCreator,
    ProposalTargetCreator,
    bbox2loc,
    enumerate_shifted_anchor,
    generate_anchor_base,
)
from vision.utils import bbox_iou

BBOX = numpy.array([[20, 30, 120, 90], [150, 140, 250, 300]], numpy.float32)
LABEL = numpy.array([3, 0], numpy.int32)


def _anchor():
    return enumerate_shifted_anchor(generate_anchor_base(anchor_scales=(2, 4, 8)), 16, 20, 25)


def test_anchor_labels_follow_the_ious():
    anchor = _anchor()
    creator = AnchorTargetCreator(n_sample=10 ** 6)
    loc, label = creator(BBOX, anchor, (320, 400), rng=numpy.random.default_rng(0))
    assert loc.shape == anchor.shape and loc.dtype == numpy.float32
    assert label.shape == (len(anchor),) and label.dtype == numpy.int32
    inside = ((anchor[:, :2] >= 0) & (anchor[:, 2:] <= (320, 400))).all(axis=1)
    assert (label[~inside] == -1).all() and (loc[~inside] == 0).all()
    iou = bbox_iou(anchor, BBOX)
    max_iou = iou.max(axis=1)
    assert (label[inside & (max_iou >= 0.7)] == 1).all()
    assert (label[inside & (max_iou < 0.3)] != -1).all()
    for k in range(len(BBOX)):   # the best anchor of each box is positive
        best = numpy.flatnonzero(inside)[iou[inside, k].argmax()]
        assert label[best] == 1
    positive = label == 1
    numpy.testing.assert_allclose(loc[positive], bbox2loc(anchor[positive],
                                                          BBOX[iou[positive].argmax(axis=1)]))


def test_anchor_sampling_counts_and_seeds():
    anchor = _anchor()
    creator = AnchorTargetCreator(n_sample=64, pos_ratio=0.25)
    _, label = creator(BBOX, anchor, (320, 400), rng=numpy.random.default_rng(1))
    assert (label == 1).sum() <= 16 and (label >= 0).sum() == 64
    _, again = creator(BBOX, anchor, (320, 400), rng=numpy.random.default_rng(1))
    numpy.testing.assert_array_equal(label, again)
    _, other = creator(BBOX, anchor, (320, 400), rng=numpy.random.default_rng(2))
    assert (label != other).any()
    numpy.random.seed(3)
    _, first = creator(BBOX, anchor, (320, 400))
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(first, creator(BBOX, anchor, (320, 400))[1])


def test_proposal_targets():
    rng = numpy.random.RandomState(0)
    yx = rng.uniform(0, 250, (300, 2))
    roi = numpy.hstack((yx, yx + rng.uniform(20, 150, (300, 2)))).astype(numpy.float32)
    creator = ProposalTargetCreator(n_sample=32, pos_ratio=0.25)
    sample_roi, gt_loc, gt_label = creator(roi, BBOX, LABEL, rng=numpy.random.default_rng(0))
    assert sample_roi.shape == (32, 4) and gt_loc.shape == (32, 4)
    assert gt_label.shape == (32,) and gt_label.dtype == numpy.int32
    iou = bbox_iou(sample_roi, BBOX)
    n_pos = int((gt_label > 0).sum())
    assert 2 <= n_pos <= 8    # the boxes themselves are foreground candidates
    assert (gt_label[:n_pos] > 0).all() and (gt_label[n_pos:] == 0).all()
    assert (iou[:n_pos].max(axis=1) >= 0.5).all() and (iou[n_pos:].max(axis=1) < 0.5).all()
    numpy.testing.assert_array_equal(gt_label[:n_pos], LABEL[iou[:n_pos].argmax(axis=1)] + 1)
    expected = bbox2loc(sample_roi, BBOX[iou.argmax(axis=1)]) / [0.1, 0.1, 0.2, 0.2]
    numpy.testing.assert_allclose(gt_loc, expected, rtol=1e-5, atol=1e-5)
    again = creator(roi, BBOX, LABEL, rng=numpy.random.default_rng(0))
    numpy.testing.assert_array_equal(again[0], sample_roi)


def test_boxes_are_required():
    with pytest.raises(ValueError, match='bbox must hold at least one box'):
        AnchorTargetCreator()(numpy.zeros((0, 4), numpy.float32), _anchor(), (320, 400))
    with pytest.raises(ValueError, match=r'label must have shape \(2,\)'):
        ProposalTargetCreator()(BBOX, BBOX, LABEL[:1])
