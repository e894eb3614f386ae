"""MultiboxCoder against ChainerCV 0.13's ``encode`` and ``decode`` written out, with the
boundary values: IoU exactly at ``iou_thresh`` and at the matching floor (1e-6), scores
exactly at ``score_thresh``, ties; its defaults, messages, devices and dtypes."""

from __future__ import annotations

import warnings

import numpy
import pytest

from framework import backend
from framework.testing.emulated_device import EmulatedArray
from vision.models.detection.ssd import MultiboxCoder
from vision.utils import bbox_iou


def _coder():
    return MultiboxCoder((4, 2), ((2,), (2, 3)), (8, 16), (8, 16, 32), (0.1, 0.2))


def _corners(default):
    return numpy.hstack((default[:, :2] - default[:, 2:] / 2,
                         default[:, :2] + default[:, 2:] / 2))


def _chainercv_encode(default, variance, bbox, label, iou_thresh=0.5):
    """ChainerCV 0.13's MultiboxCoder.encode, written out (labels, and the offsets of the
    matched default boxes: ChainerCV leaves those of the background to its loss)."""
    iou = bbox_iou(_corners(default), bbox)
    index = numpy.empty(len(default), dtype=int)
    index[:] = -1
    masked_iou = iou.copy()
    while True:
        i, j = numpy.unravel_index(masked_iou.argmax(), masked_iou.shape)
        if masked_iou[i, j] <= 1e-6:
            break
        index[i] = j
        masked_iou[i, :] = 0
        masked_iou[:, j] = 0
    mask = numpy.logical_and(index < 0, iou.max(axis=1) >= iou_thresh)
    if numpy.count_nonzero(mask) > 0:
        index[mask] = iou[mask].argmax(axis=1)
    mb_bbox = bbox[index].copy()
    mb_bbox[:, 2:] -= mb_bbox[:, :2]
    mb_bbox[:, :2] += mb_bbox[:, 2:] / 2
    mb_loc = numpy.empty_like(mb_bbox)
    mb_loc[:, :2] = (mb_bbox[:, :2] - default[:, :2]) / (variance[0] * default[:, 2:])
    mb_loc[:, 2:] = numpy.log(mb_bbox[:, 2:] / default[:, 2:]) / variance[1]
    mb_label = label[index] + 1
    mb_label[index < 0] = 0
    return mb_loc.astype(numpy.float32), mb_label.astype(numpy.int32)


def _chainercv_decode_bbox(default, variance, mb_loc):
    """The boxes of ChainerCV 0.13's MultiboxCoder.decode, written out."""
    mb_bbox = default.copy()
    mb_bbox[:, :2] += mb_loc[:, :2] * variance[0] * default[:, 2:]
    mb_bbox[:, 2:] *= numpy.exp(mb_loc[:, 2:] * variance[1])
    mb_bbox[:, :2] -= mb_bbox[:, 2:] / 2
    mb_bbox[:, 2:] += mb_bbox[:, :2]
    return mb_bbox


def _boxes(coder, rng, n):
    """``n`` boxes (float64) around default boxes and at random, with duplicates (ties)."""
    default = _corners(coder.default_bbox)
    near = default[rng.choice(len(default), n // 2)] + rng.uniform(-3, 3, (n // 2, 4))
    yx = rng.uniform(-4, 30, (n - n // 2, 2))
    free = numpy.hstack((yx, yx + rng.uniform(1, 20, (n - n // 2, 2))))
    bbox = numpy.concatenate((near, free, near[:2]))
    bbox[:, 2:] = numpy.maximum(bbox[:, 2:], bbox[:, :2] + 0.5)
    return bbox


@pytest.mark.parametrize('seed', range(6))
@pytest.mark.parametrize('iou_thresh', [None, 0.3, 0.7])
def test_encode_is_chainercvs(seed, iou_thresh):
    coder = _coder()
    rng = numpy.random.RandomState(seed)
    bbox = _boxes(coder, rng, 2 + 2 * seed)
    label = rng.randint(0, 5, len(bbox)).astype(numpy.int32)
    kwargs = {} if iou_thresh is None else {'iou_thresh': iou_thresh}
    mb_loc, mb_label = coder.encode(bbox, label, **kwargs)
    loc, expected = _chainercv_encode(coder.default_bbox, coder.variance, bbox, label,
                                      **kwargs)
    numpy.testing.assert_array_equal(mb_label, expected)
    fg = expected > 0
    numpy.testing.assert_allclose(mb_loc[fg], loc[fg], rtol=1e-6, atol=1e-6)
    assert not mb_loc[~fg].any()


def _one_cell_coder():
    """Two rows of two cells, each with two 8 x 8 squares: the default boxes [0, 0, 8, 8]
    (twice), [0, 8, 8, 16] (twice), [8, 0, 16, 8] (twice), [8, 8, 16, 16] (twice)."""
    return MultiboxCoder((2,), ((),), (8,), (8, 8), (0.1, 0.2))


def test_iou_exactly_iou_thresh_is_matched():
    coder = _one_cell_coder()
    bbox = numpy.array([[0, 0, 8, 16]], numpy.float32)     # IoU exactly 0.5 with 4 of them
    _, mb_label = coder.encode(bbox, numpy.array([1], numpy.int32))
    numpy.testing.assert_array_equal(mb_label, [2, 2, 2, 2, 0, 0, 0, 0])
    _, mb_label = coder.encode(bbox, numpy.array([1], numpy.int32), iou_thresh=0.51)
    numpy.testing.assert_array_equal(mb_label, [2, 0, 0, 0, 0, 0, 0, 0])


def test_iou_of_at_most_1e6_matches_nothing():
    # One cell with two default boxes [0, 0, 8, 8]; a box that meets them on a 1 x 1 square
    # with a union of 10^6 exactly: IoU 1e-6, ChainerCV's floor, is no match.
    coder = MultiboxCoder((1,), ((),), (8,), (8, 8), (0.1, 0.2))
    bbox = numpy.array([[7, 7, 8, 7 + (10 ** 6 - 64 + 1)]], numpy.float64)
    assert bbox_iou(_corners(coder.default_bbox), bbox)[0, 0] == 1e-6
    mb_loc, mb_label = coder.encode(bbox, numpy.array([0], numpy.int32))
    assert not mb_label.any() and not mb_loc.any()
    bbox[0, 3] -= 1                                         # IoU just above: matched, once
    _, mb_label = coder.encode(bbox, numpy.array([0], numpy.int32))
    numpy.testing.assert_array_equal(mb_label, [1, 0])


def test_a_box_that_overlaps_nothing_leaves_the_others_matched():
    coder = _one_cell_coder()
    bbox = numpy.array([[0, 0, 8, 8], [100, 100, 110, 110], [8, 8, 16, 16]], numpy.float32)
    mb_loc, mb_label = coder.encode(bbox, numpy.array([0, 1, 2], numpy.int32))
    numpy.testing.assert_array_equal(mb_label, [1, 1, 0, 0, 0, 0, 3, 3])
    assert not mb_loc.any()                                 # every match is exact


def test_a_default_box_taken_greedily_keeps_its_box():
    # Box 1 takes default box 0 greedily (IoU 15/16), then box 0 takes default box 1 (IoU
    # 1/16, its best left); default box 1 overlaps box 1 more, but it is taken: it keeps box 0.
    coder = _one_cell_coder()
    bbox = numpy.array([[0, -8, 8, 1], [0, 0, 8, 7.5]], numpy.float64)
    label = numpy.array([0, 1], numpy.int32)
    _, mb_label = coder.encode(bbox, label)
    numpy.testing.assert_array_equal(mb_label, [2, 1, 0, 0, 0, 0, 0, 0])
    numpy.testing.assert_array_equal(
        mb_label, _chainercv_encode(coder.default_bbox, coder.variance, bbox, label)[1])


def test_encode_computes_in_float64():
    # float32 boxes give the targets of their values in float64 (then rounded once).
    coder = _coder()
    bbox = _boxes(coder, numpy.random.RandomState(7), 30).astype(numpy.float32)
    label = numpy.arange(len(bbox), dtype=numpy.int32) % 3
    for actual, expected in zip(coder.encode(bbox, label),
                                coder.encode(bbox.astype(numpy.float64), label)):
        numpy.testing.assert_array_equal(actual, expected)


def test_encode_types_without_boxes():
    mb_loc, mb_label = _coder().encode(numpy.zeros((0, 4), numpy.float32),
                                       numpy.zeros(0, numpy.int32))
    assert (mb_loc.dtype, mb_label.dtype) == (numpy.float32, numpy.int32)


def test_degenerate_and_inverted_boxes_warn_nothing():
    # Their IoUs are 0, so they are no match, even as the first box (whose offsets are
    # computed for the background, then dropped).
    coder = _one_cell_coder()
    bbox = numpy.array([[0, 0, 8, 0], [8, 8, 4, 12], [8, 8, 16, 16]], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        mb_loc, mb_label = coder.encode(bbox, numpy.array([0, 1, 2], numpy.int32))
        mb_loc2, _ = coder.encode(bbox[1:], numpy.array([1, 2], numpy.int32))
    numpy.testing.assert_array_equal(mb_label, [0, 0, 0, 0, 0, 0, 3, 3])
    assert numpy.isfinite(mb_loc).all() and numpy.isfinite(mb_loc2).all()


def test_decode_bbox_is_chainercvs_one_image_or_a_batch():
    coder = _coder()
    rng = numpy.random.RandomState(0)
    K = len(coder.default_bbox)
    mb_loc = rng.normal(0, 1, (3, K, 4))
    batch = coder.decode_bbox(mb_loc)
    assert batch.shape == (3, K, 4)
    for b in range(3):
        expected = _chainercv_decode_bbox(coder.default_bbox, coder.variance, mb_loc[b])
        numpy.testing.assert_allclose(coder.decode_bbox(mb_loc[b]), expected, rtol=1e-12)
        numpy.testing.assert_allclose(batch[b], expected, rtol=1e-12)


def test_decode_defaults_are_chainercvs():
    # nms_thresh 0.45 and score_thresh 0.6: of two boxes of one class above the score
    # threshold, the second is suppressed at IoU 0.6, not at IoU 1/3; a third scores 0.5.
    coder = _one_cell_coder()
    K = len(coder.default_bbox)
    mb_loc = numpy.zeros((K, 4), numpy.float32)
    mb_loc[2] = [0, -4 / 0.8, 0, 0]                         # [0, 4, 8, 12]: IoU 1/3 with box 0
    mb_conf = numpy.full((K, 2), -20, numpy.float32)
    mb_conf[0] = [0, 3]                                     # 0.953
    mb_conf[2] = [0, 2]                                     # 0.881
    mb_conf[4] = [0, 0]                                     # 0.5
    bbox, label, score = coder.decode(mb_loc, mb_conf)
    numpy.testing.assert_allclose(bbox, [[0, 0, 8, 8], [0, 4, 8, 12]], atol=1e-5)
    mb_loc[2] = [0, -6 / 0.8, 0, 0]                         # [0, 2, 8, 10]: IoU 0.6
    bbox, label, score = coder.decode(mb_loc, mb_conf)
    numpy.testing.assert_allclose(bbox, [[0, 0, 8, 8]], atol=1e-5)


def test_score_exactly_score_thresh_is_kept():
    coder = _one_cell_coder()
    K = len(coder.default_bbox)
    mb_conf = numpy.zeros((K, 2), numpy.float32)            # softmax: exactly 0.5
    mb_conf[1:] = [0, -1]
    _, label, score = coder.decode(numpy.zeros((K, 4), numpy.float32), mb_conf, None, 0.5)
    numpy.testing.assert_array_equal(score, [0.5])


def test_decode_scores_are_stable_for_large_and_spread_logits():
    # The softmax is taken row by row after subtracting each row's maximum: logits of 1000
    # (exp overflows) or rows far apart (one row's exp underflows) still give probabilities.
    coder = _one_cell_coder()
    K = len(coder.default_bbox)
    mb_conf = numpy.zeros((K, 3), numpy.float32)
    mb_conf[0] = [1000, 1000 + numpy.log(3), 0]             # 0.25, 0.75, 0
    mb_conf[1] = [-1000, -1000, -1000 + numpy.log(2)]       # 0.25, 0.25, 0.5
    _, label, score = coder.decode(numpy.zeros((K, 4), numpy.float32), mb_conf, None, 0.45)
    numpy.testing.assert_array_equal(label, [0, 1])
    numpy.testing.assert_allclose(score, [0.75, 0.5], rtol=1e-4)


def test_tied_scores_keep_the_order_of_the_default_boxes():
    # Two scores, each tied over half of the default boxes and both classes: without
    # suppression the boxes come by label, then by score, then in the default boxes' order.
    coder = _coder()
    K = len(coder.default_bbox)
    mb_conf = numpy.zeros((K, 3), numpy.float32)
    mb_conf[1::2, 1:] = 1
    default = _corners(coder.default_bbox).astype(numpy.float32)
    by_score = numpy.concatenate((default[1::2], default[::2]))
    bbox, label, _ = coder.decode(numpy.zeros((K, 4), numpy.float32), mb_conf, None, 0.2)
    numpy.testing.assert_array_equal(label, numpy.repeat([0, 1], K))
    numpy.testing.assert_array_equal(bbox, numpy.concatenate((by_score, by_score)))
    # The first K + 10 by score (a default box's two classes come together), by label.
    bbox, label, _ = coder.decode(numpy.zeros((K, 4), numpy.float32), mb_conf, None, 0.2,
                                  detections_per_img=K + 10)
    n = (K + 10) // 2
    numpy.testing.assert_array_equal(bbox, numpy.concatenate((by_score[:n], by_score[:n])))


@pytest.mark.parametrize('name, args', [
    ('aspect_ratios', ((4, 2), ((2,),), (8, 16), (8, 16, 32))),
    ('steps', ((4, 2), ((2,), (2,)), (8,), (8, 16, 32))),
])
def test_length_messages(name, args):
    with pytest.raises(ValueError, match=rf'^MultiboxCoder: {name} must have 2 entries '
                                         rf'\(len\(grids\) = 2\), but got 1$'):
        MultiboxCoder(*args, (0.1, 0.2))


def test_encode_and_decode_on_a_device():
    coder = _coder()
    rng = numpy.random.RandomState(3)
    bbox = _boxes(coder, rng, 6)
    label = numpy.arange(len(bbox), dtype=numpy.int32) % 2
    dev = [backend.to_device('@emulated', x) for x in (bbox, label)]
    for array, expected in zip(coder.encode(*dev), coder.encode(bbox, label)):
        assert isinstance(array, EmulatedArray)
        numpy.testing.assert_array_equal(backend.to_cpu(array), expected)
    K = len(coder.default_bbox)
    mb_loc, mb_conf = rng.normal(0, 1, (K, 4)), rng.normal(0, 2, (K, 3))
    on_host = coder.decode(mb_loc, mb_conf, 0.3, 0.2)
    on_device = coder.decode(backend.to_device('@emulated', mb_loc),
                             backend.to_device('@emulated', mb_conf), 0.3, 0.2)
    for array, expected in zip(on_device, on_host):
        assert isinstance(array, EmulatedArray)
        numpy.testing.assert_array_equal(backend.to_cpu(array), expected)
