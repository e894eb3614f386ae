"""AnchorTargetCreator and ProposalTargetCreator: labels, sampling counts, targets, seeds."""

from __future__ import annotations

import functools

import numpy
import pytest

from framework import backend
from framework.testing.emulated_device import EmulatedArray
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


def _chainercv_anchor_targets(bbox, anchor, img_size, n_sample=256, pos_iou_thresh=0.7,
                              neg_iou_thresh=0.3, pos_ratio=0.5):
    """ChainerCV 0.13's AnchorTargetCreator.__call__ (with _create_label, _calc_ious and
    _unmap), written out; it draws from NumPy's global state."""
    img_H, img_W = img_size
    inside_index = numpy.where((anchor[:, 0] >= 0) & (anchor[:, 1] >= 0)
                               & (anchor[:, 2] <= img_H) & (anchor[:, 3] <= img_W))[0]
    inside = anchor[inside_index]
    label = numpy.empty((len(inside_index),), dtype=numpy.int32)
    label.fill(-1)
    ious = bbox_iou(inside, bbox)
    argmax_ious = ious.argmax(axis=1)
    max_ious = ious[numpy.arange(len(inside_index)), argmax_ious]
    gt_argmax_ious = ious.argmax(axis=0)
    gt_max_ious = ious[gt_argmax_ious, numpy.arange(ious.shape[1])]
    gt_argmax_ious = numpy.where(ious == gt_max_ious)[0]
    label[max_ious < neg_iou_thresh] = 0
    label[gt_argmax_ious] = 1
    label[max_ious >= pos_iou_thresh] = 1
    n_pos = int(pos_ratio * n_sample)
    pos_index = numpy.where(label == 1)[0]
    if len(pos_index) > n_pos:
        disable_index = numpy.random.choice(pos_index, size=(len(pos_index) - n_pos),
                                            replace=False)
        label[disable_index] = -1
    n_neg = n_sample - numpy.sum(label == 1)
    neg_index = numpy.where(label == 0)[0]
    if len(neg_index) > n_neg:
        disable_index = numpy.random.choice(neg_index, size=(len(neg_index) - n_neg),
                                            replace=False)
        label[disable_index] = -1
    loc = bbox2loc(inside, bbox[argmax_ious])
    full_label = numpy.full(len(anchor), -1, numpy.int32)
    full_label[inside_index] = label
    full_loc = numpy.zeros((len(anchor), 4), numpy.float32)
    full_loc[inside_index] = loc
    return full_loc, full_label


def _chainercv_proposal_targets(roi, bbox, label, n_sample=128, pos_ratio=0.25,
                                pos_iou_thresh=0.5, neg_iou_thresh_hi=0.5,
                                neg_iou_thresh_lo=0.0, loc_normalize_mean=(0., 0., 0., 0.),
                                loc_normalize_std=(0.1, 0.1, 0.2, 0.2)):
    """ChainerCV 0.13's ProposalTargetCreator.__call__, written out; it draws from NumPy's
    global state."""
    roi = numpy.concatenate((roi, bbox), axis=0)
    pos_roi_per_image = numpy.round(n_sample * pos_ratio)
    iou = bbox_iou(roi, bbox)
    gt_assignment = iou.argmax(axis=1)
    max_iou = iou.max(axis=1)
    gt_roi_label = label[gt_assignment] + 1
    pos_index = numpy.where(max_iou >= pos_iou_thresh)[0]
    pos_roi_per_this_image = int(min(pos_roi_per_image, pos_index.size))
    if pos_index.size > 0:
        pos_index = numpy.random.choice(pos_index, size=pos_roi_per_this_image, replace=False)
    neg_index = numpy.where((max_iou < neg_iou_thresh_hi) & (max_iou >= neg_iou_thresh_lo))[0]
    neg_roi_per_this_image = int(min(n_sample - pos_roi_per_this_image, neg_index.size))
    if neg_index.size > 0:
        neg_index = numpy.random.choice(neg_index, size=neg_roi_per_this_image, replace=False)
    keep_index = numpy.append(pos_index, neg_index)
    gt_roi_label = gt_roi_label[keep_index]
    gt_roi_label[pos_roi_per_this_image:] = 0
    sample_roi = roi[keep_index]
    gt_roi_loc = bbox2loc(sample_roi, bbox[gt_assignment[keep_index]])
    gt_roi_loc = ((gt_roi_loc - numpy.array(loc_normalize_mean, numpy.float32))
                  / numpy.array(loc_normalize_std, numpy.float32))
    return sample_roi, gt_roi_loc, gt_roi_label


def _layout(n_copy, n_half, n_far, bbox=((0, 0, 32, 32),)):
    """Anchors or RoIs by kind: ``n_copy`` of IoU 1 with the first box (shifted copies of
    it, each on the box), ``n_half`` of IoU exactly 0.5 with it, ``n_far`` of IoU 0."""
    box = numpy.asarray(bbox[0], numpy.float32)
    copy = numpy.repeat(box[None], n_copy, axis=0)
    half = numpy.repeat(box[None], n_half, axis=0)
    half[:, 2] = box[0] + (box[2] - box[0]) / 2         # the top half: IoU 0.5
    far = numpy.arange(n_far, dtype=numpy.float32)[:, None] * 40 + [100, 100, 130, 130]
    return numpy.concatenate((copy, half, far)).astype(numpy.float32)


@pytest.mark.parametrize('kwargs, counts', [
    ({}, (128, 128)),                                      # ChainerCV's defaults
    ({'n_sample': 40, 'pos_ratio': 0.25}, (10, 30)),
    ({'n_sample': 300, 'pos_ratio': 0.9}, (200, 100)),     # fewer positives than the share
])
def test_anchor_sampling_is_chainercvs_with_its_seed(kwargs, counts):
    # More positives and negatives than the sample takes; with NumPy's global state seeded,
    # the draws are ChainerCV's.
    bbox = numpy.array([[0, 0, 32, 32]], numpy.float32)
    anchor = _layout(200, 20, 150)
    numpy.random.seed(0)
    loc, label = AnchorTargetCreator(**kwargs)(bbox, anchor, (7000, 7000))
    numpy.random.seed(0)
    expected_loc, expected_label = _chainercv_anchor_targets(bbox, anchor, (7000, 7000),
                                                             **kwargs)
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_array_equal(loc, expected_loc)
    assert ((label == 1).sum(), (label == 0).sum()) == counts
    assert (label[200:220] == -1).all()                    # IoU 0.5: ignored
    assert (label == -1).sum() == len(anchor) - sum(counts)


def test_anchor_sampling_draws_only_when_there_are_too_many():
    # Exactly n_sample * pos_ratio positives: none is dropped, and (as in ChainerCV) NumPy's
    # global state is not drawn from, so the negatives are ChainerCV's.
    bbox = numpy.array([[0, 0, 32, 32]], numpy.float32)
    anchor = _layout(16, 0, 100)
    numpy.random.seed(5)
    _, label = AnchorTargetCreator(n_sample=32, pos_ratio=0.5)(bbox, anchor, (5000, 5000))
    numpy.random.seed(5)
    _, expected = _chainercv_anchor_targets(bbox, anchor, (5000, 5000), n_sample=32)
    numpy.testing.assert_array_equal(label, expected)
    assert (label[:16] == 1).all() and (label == 0).sum() == 16


def test_anchors_on_the_border_of_the_image_are_inside():
    bbox = numpy.array([[10, 10, 50, 70]], numpy.float32)
    anchor = numpy.array([[0, 0, 40, 40],          # on the top-left corner: inside
                          [60, 80, 100, 120],      # on the bottom-right corner: inside
                          [0.5, 0.5, 40, 40],      # inside
                          [-0.5, 0, 40, 40], [0, -0.5, 40, 40],        # outside
                          [60, 80, 100.5, 120], [60, 80, 100, 120.5]], numpy.float32)
    loc, label = AnchorTargetCreator()(bbox, anchor, (100, 120),
                                       rng=numpy.random.default_rng(0))
    numpy.testing.assert_array_equal(label >= 0, [True, True, True, False, False, False, False])
    assert (loc[:3] != 0).any(axis=1).all() and (loc[3:] == 0).all()


def test_anchor_iou_thresholds_are_included_and_excluded_exactly():
    # IoU exactly pos_iou_thresh is positive; exactly neg_iou_thresh is not negative (ignored).
    # The thresholds are binary fractions, so float32 IoUs hit them exactly.
    bbox = numpy.array([[0, 0, 32, 32]], numpy.float32)
    anchor = numpy.array([[0, 0, 32, 32],          # IoU 1: the best anchor of the box
                          [0, 0, 32, 24],          # IoU 0.75
                          [0, 0, 32, 16],          # IoU 0.5
                          [0, 0, 32, 8],           # IoU 0.25
                          [0, 0, 32, 4],           # IoU 0.125
                          [40, 40, 60, 60]], numpy.float32)   # IoU 0
    _, label = AnchorTargetCreator(pos_iou_thresh=0.75, neg_iou_thresh=0.25)(
        bbox, anchor, (100, 100), rng=numpy.random.default_rng(0))
    numpy.testing.assert_array_equal(label, [1, 1, -1, -1, 0, 0])


def test_bad_boxes_messages():
    with pytest.raises(ValueError, match=r'^AnchorTargetCreator: bbox must hold at least one '
                                         r'box, but got shape \(0, 4\)$'):
        AnchorTargetCreator()(numpy.zeros((0, 4), numpy.float32), _anchor(), (320, 400))
    with pytest.raises(ValueError, match=r'^ProposalTargetCreator: bbox must hold at least '
                                         r'one box, but got shape \(0, 4\)$'):
        ProposalTargetCreator()(BBOX, numpy.zeros((0, 4), numpy.float32),
                                numpy.zeros(0, numpy.int32))
    with pytest.raises(ValueError, match=r'^ProposalTargetCreator: label must have shape '
                                         r'\(2,\) like bbox, but got shape \(1,\)$'):
        ProposalTargetCreator()(BBOX, BBOX, LABEL[:1])


TWO_BOXES = numpy.array([[0, 0, 32, 32], [200, 0, 232, 40]], numpy.float32)


@pytest.mark.parametrize('kwargs, layout, bbox, n_pos', [
    ({}, (100, 20, 150), TWO_BOXES, 32),                  # ChainerCV's defaults
    ({'n_sample': 20, 'pos_ratio': 0.3}, (100, 20, 150), TWO_BOXES, 6),
    # Every foreground RoI (the 100 copies, the 2 boxes, the 20 of IoU 0.5), once.
    ({'n_sample': 300, 'pos_ratio': 0.9}, (100, 20, 150), TWO_BOXES, 122),
    ({}, (0, 0, 150), TWO_BOXES[:1], 1),                  # one foreground RoI: the box
    ({'n_sample': 300, 'pos_ratio': 0.9}, (100, 0, 1), TWO_BOXES[:1], 101),  # one background
])
def test_proposal_sampling_is_chainercvs_with_its_seed(kwargs, layout, bbox, n_pos):
    # With NumPy's global state seeded, the draws of two images in a row are ChainerCV's.
    label = numpy.array([4, 1], numpy.int32)[:len(bbox)]
    roi = _layout(*layout, bbox)
    mean, std = (0.5, -0.25, 0.125, 1.), (0.1, 0.2, 0.3, 0.4)
    creator = ProposalTargetCreator(**kwargs)
    numpy.random.seed(0)
    actual = [creator(roi, bbox, label, mean, std) for _ in range(2)]
    numpy.random.seed(0)
    expected = [_chainercv_proposal_targets(roi, bbox, label, **kwargs, loc_normalize_mean=mean,
                                            loc_normalize_std=std) for _ in range(2)]
    for arrays, wanted_arrays in zip(actual, expected):
        for array, wanted in zip(arrays, wanted_arrays):
            assert array.dtype == wanted.dtype
            numpy.testing.assert_array_equal(array, wanted)
        assert (arrays[2] > 0).sum() == n_pos


def test_proposal_sampling_of_every_region_is_light_head_rcnns():
    # n_sample None: ChainerCV's Light-Head R-CNN's -1, as many as the regions and the boxes
    label = numpy.array([4, 1], numpy.int32)
    roi = _layout(100, 20, 150, TWO_BOXES)
    numpy.random.seed(3)
    actual = ProposalTargetCreator(n_sample=None)(roi, TWO_BOXES, label)
    numpy.random.seed(3)
    expected = _chainercv_proposal_targets(roi, TWO_BOXES, label, n_sample=len(roi) + 2)
    for array, wanted in zip(actual, expected):
        numpy.testing.assert_array_equal(array, wanted)
    assert (actual[2] > 0).sum() == round(0.25 * (len(roi) + 2))


def test_proposal_iou_thresholds_are_included_and_excluded_exactly():
    # IoU exactly pos_iou_thresh (= neg_iou_thresh_hi) is foreground and not background;
    # IoU exactly neg_iou_thresh_lo is background. Every candidate fits in the sample, once.
    bbox = numpy.array([[0, 0, 32, 32]], numpy.float32)
    label = numpy.array([2], numpy.int32)
    roi = numpy.array([[0, 0, 32, 16],             # IoU 0.5
                       [0, 0, 32, 8],              # IoU 0.25
                       [0, 0, 32, 4],              # IoU 0.125
                       [40, 40, 60, 60]], numpy.float32)    # IoU 0
    creator = ProposalTargetCreator(n_sample=10, pos_ratio=1.)
    sample_roi, _, gt_label = creator(roi, bbox, label, rng=numpy.random.default_rng(0))
    assert sorted(zip(gt_label.tolist(), sample_roi[:, 3].tolist())) == [
        (0, 4.), (0, 8.), (0, 60.), (3, 16.), (3, 32.)]
    creator = ProposalTargetCreator(n_sample=10, pos_ratio=1., neg_iou_thresh_lo=0.125)
    sample_roi, _, gt_label = creator(roi, bbox, label, rng=numpy.random.default_rng(0))
    assert sorted(zip(gt_label.tolist(), sample_roi[:, 3].tolist())) == [
        (0, 4.), (0, 8.), (3, 16.), (3, 32.)]


def test_one_box_and_float64_proposals():
    # One ground-truth box is enough; float64 RoIs come back float32.
    bbox = numpy.array([[0, 0, 32, 32]], numpy.float32)
    roi = numpy.array([[0, 0, 32, 16], [40, 40, 60, 60]], numpy.float64)
    sample_roi, gt_loc, gt_label = ProposalTargetCreator()(
        roi, bbox, numpy.array([0], numpy.int32), rng=numpy.random.default_rng(0))
    assert (sample_roi.dtype, gt_loc.dtype, gt_label.dtype) == (
        numpy.float32, numpy.float32, numpy.int32)
    assert sorted(gt_label.tolist()) == [0, 1, 1]


def test_targets_are_on_the_device_of_the_boxes_or_the_rois():
    # AnchorTargetCreator's on bbox's device, ProposalTargetCreator's on roi's (as in
    # ChainerCV), whatever the device of the other arguments.
    anchor, rng = _anchor(), numpy.random.default_rng
    on_device = functools.partial(backend.to_device, '@emulated')
    expected = AnchorTargetCreator()(BBOX, anchor, (320, 400), rng=rng(0))
    for bbox, anchor_, device in ((on_device(BBOX), anchor, True),
                                  (BBOX, on_device(anchor), False)):
        out = AnchorTargetCreator()(bbox, anchor_, (320, 400), rng=rng(0))
        for array, wanted in zip(out, expected):
            assert isinstance(array, EmulatedArray) is device
            numpy.testing.assert_array_equal(backend.to_cpu(array), wanted)
    roi = _layout(10, 5, 20, BBOX)
    expected = ProposalTargetCreator()(roi, BBOX, LABEL, rng=rng(0))
    for args, device in (((on_device(roi), BBOX, LABEL), True),
                         ((roi, on_device(BBOX), on_device(LABEL)), False)):
        out = ProposalTargetCreator()(*args, rng=rng(0))
        for array, wanted in zip(out, expected):
            assert isinstance(array, EmulatedArray) is device
            numpy.testing.assert_array_equal(backend.to_cpu(array), wanted)
