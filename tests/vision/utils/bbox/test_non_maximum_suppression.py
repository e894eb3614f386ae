import numpy
import pytest

import vision.utils.bbox._greedy as greedy
from vision.utils import (
    batched_non_maximum_suppression,
    bbox_iou,
    generate_random_bbox,
    non_maximum_suppression,
)


def _iou_row(box, others):
    """IoUs of one box with others, from the definition, in float64."""
    box = box.astype(numpy.float64)
    others = others.astype(numpy.float64)
    with numpy.errstate(invalid='ignore', divide='ignore'):
        height = numpy.minimum(box[2], others[:, 2]) - numpy.maximum(box[0], others[:, 0])
        width = numpy.minimum(box[3], others[:, 3]) - numpy.maximum(box[1], others[:, 1])
        inter = numpy.clip(height, 0, None) * numpy.clip(width, 0, None)
        area = (box[2] - box[0]) * (box[3] - box[1])
        areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
        return inter / (area + areas - inter)


def _reference(bbox, thresh, score=None, limit=None, label=None, iou_row=_iou_row):
    """Greedy NMS, one box at a time: the definition."""
    order = range(len(bbox)) if score is None else sorted(
        range(len(bbox)), key=lambda i: (-score[i], i))
    kept = numpy.zeros(0, dtype=numpy.int32)
    for i in order:
        if limit is not None and len(kept) >= limit:
            break
        rivals = kept if label is None else kept[label[kept] == label[i]]
        if rivals.size and (iou_row(bbox[i], bbox[rivals]) >= thresh).any():
            continue
        kept = numpy.append(kept, numpy.int32(i))
    return kept


def _random_bbox(rng, n, extent, low, high, dtype=numpy.float64):
    corner = rng.uniform(0, extent, (n, 2))
    size = rng.uniform(low, high, (n, 2))
    return numpy.concatenate([corner, corner + size], axis=1).astype(dtype)


@pytest.fixture
def small_blocks(monkeypatch):
    """Small blocks and chunks, so that a few thousand boxes exercise every path."""
    monkeypatch.setattr(greedy, '_BLOCK', 16)
    monkeypatch.setattr(greedy, '_PAIR_CHUNK', 300)
    monkeypatch.setattr(greedy, '_COMPACT_SLACK', 0)


@pytest.mark.parametrize('thresh, expected', [
    (1, [0, 1, 2, 3]), (0.5, [0, 1, 3]), (0.3, [0, 2, 3]), (0.2, [0, 3]), (0, [0]),
])
def test_chainercv_cases(thresh, expected):
    bbox = numpy.array([
        (0, 0, 4, 4),
        (1, 1, 5, 5),  # 9/23
        (2, 1, 6, 5),  # 6/26, 12/20
        (4, 0, 8, 4),  # 0/32, 3/29, 6/26
    ])
    selected = non_maximum_suppression(bbox, thresh)
    assert isinstance(selected, numpy.ndarray)
    assert selected.dtype == numpy.int32
    numpy.testing.assert_equal(selected, expected)


def test_score_and_limit_equal_reordering():
    numpy.random.seed(0)
    bbox = generate_random_bbox(6000, (600, 800), 32, 512)
    score = numpy.random.uniform(0, 100, size=len(bbox))
    selected = non_maximum_suppression(bbox, 0.5, score, 100)
    order = score.argsort()[::-1]
    reordered = order[non_maximum_suppression(bbox[order], 0.5)[:100]]
    numpy.testing.assert_equal(selected, reordered)
    assert len(selected) == 100


@pytest.mark.parametrize('bbox', [numpy.zeros((0, 4)), numpy.zeros((0, 4), numpy.float32)])
def test_empty(bbox):
    for selected in (non_maximum_suppression(bbox, 0.5),
                     non_maximum_suppression(bbox, 0.5, numpy.zeros(0), 3),
                     batched_non_maximum_suppression(bbox, numpy.zeros(0),
                                                     numpy.zeros(0, numpy.int32), 0.5)):
        assert isinstance(selected, numpy.ndarray)
        assert selected.shape == (0,)
        assert selected.dtype == numpy.int32


@pytest.mark.parametrize('n, extent, low, high', [
    (200, 100, 1, 40), (1000, 100, 1, 40), (1000, 1000, 2, 30), (1000, 20, 5, 80),
])
@pytest.mark.parametrize('thresh', [0.0, 0.3, 0.7, 1.0])
def test_matches_reference(small_blocks, n, extent, low, high, thresh):
    rng = numpy.random.default_rng(n + extent)
    bbox = _random_bbox(rng, n, extent, low, high)
    score = rng.uniform(size=n)
    numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score),
                               _reference(bbox, thresh, score))
    numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh),
                               _reference(bbox, thresh))
    numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score, limit=7),
                               _reference(bbox, thresh, score, limit=7))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.int32, numpy.int64])
def test_suppressed_exactly_when_bbox_iou_reaches_thresh(small_blocks, dtype):
    rng = numpy.random.default_rng(1)
    bbox = numpy.round(_random_bbox(rng, 800, 60, 1, 20)).astype(dtype)
    score = rng.uniform(size=len(bbox)).astype(numpy.float32)

    def iou_row(box, others):
        return bbox_iou(box[None], others)[0]

    for thresh in (0.5, 1.5):
        numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score),
                                   _reference(bbox, thresh, score, iou_row=iou_row))


def test_large_coordinates(small_blocks):
    rng = numpy.random.default_rng(2)
    bbox = _random_bbox(rng, 1000, 100, 1, 30) * 1e5 + 1e9
    score = rng.uniform(size=len(bbox))
    for thresh in (0.3, 0.7):
        numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score),
                                   _reference(bbox, thresh, score))


def test_ties_keep_given_order():
    bbox = numpy.array([[0, 0, 10, 10]] * 4 + [[20, 20, 30, 30]] * 3, numpy.float32)
    score = numpy.array([1, 2, 2, 1, 0, 0, 0], numpy.float32)
    numpy.testing.assert_equal(non_maximum_suppression(bbox, 0.5, score), [1, 4])
    numpy.testing.assert_equal(non_maximum_suppression(bbox, 0.5), [0, 4])


def test_ties_match_reference(small_blocks):
    rng = numpy.random.default_rng(3)
    bbox = numpy.round(_random_bbox(rng, 1500, 50, 1, 15))
    bbox[rng.integers(0, 1500, 300)] = bbox[rng.integers(0, 1500, 300)]  # duplicates
    score = rng.integers(0, 4, 1500)  # many equal scores
    for thresh in (0.0, 0.5, 1.0):
        numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score),
                                   _reference(bbox, thresh, score))


def test_degenerate_boxes(small_blocks):
    rng = numpy.random.default_rng(4)
    bbox = _random_bbox(rng, 1000, 50, 0, 20)
    index = rng.permutation(1000)
    bbox[index[:100], 2] = bbox[index[:100], 0]  # zero height
    bbox[index[100:150], 2:] = bbox[index[100:150], :2]  # points
    bbox[index[150:200], 0], bbox[index[150:200], 2] = (bbox[index[150:200], 2],
                                                        bbox[index[150:200], 0].copy())
    bbox[index[200:220], 1] = numpy.nan
    bbox[index[220:240], 3] = numpy.inf
    bbox[index[240:260], 0] = -numpy.inf
    score = rng.uniform(size=1000)
    for thresh in (0.0, 0.3, 0.7):
        numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score),
                                   _reference(bbox, thresh, score))


def test_zero_area_boxes_do_not_suppress_each_other():
    point = numpy.array([[1, 1, 1, 1]] * 3, numpy.float32)
    numpy.testing.assert_equal(non_maximum_suppression(point, 0.5), [0, 1, 2])
    numpy.testing.assert_equal(non_maximum_suppression(point, 0.0), [0, 1, 2])
    # With thresh 0 a box suppresses every box it does not overlap (IoU 0 >= 0).
    with_box = numpy.array([[0, 0, 2, 2], [1, 1, 1, 1], [5, 5, 6, 6]], numpy.float32)
    numpy.testing.assert_equal(non_maximum_suppression(with_box, 0.0), [0])


@pytest.mark.parametrize('limit, expected', [(0, []), (1, [0]), (2, [0, 2]), (10, [0, 2, 3])])
def test_limit(limit, expected):
    bbox = numpy.array([[0, 0, 4, 4], [0, 0, 4, 3.9], [10, 10, 12, 12], [20, 20, 21, 21]])
    numpy.testing.assert_equal(non_maximum_suppression(bbox, 0.5, limit=limit), expected)


def test_batched_matches_per_class_reference(small_blocks):
    rng = numpy.random.default_rng(5)
    bbox = _random_bbox(rng, 1000, 60, 1, 30)
    score = rng.uniform(size=1000)
    for n_class in (1, 3, 40):
        label = rng.integers(0, n_class, 1000)
        for thresh, limit in ((0.5, None), (0.3, 50), (0.0, None)):
            numpy.testing.assert_equal(
                batched_non_maximum_suppression(bbox, score, label, thresh, limit),
                _reference(bbox, thresh, score, limit, label))


def test_batched_equals_merged_class_results():
    rng = numpy.random.default_rng(6)
    bbox = _random_bbox(rng, 400, 30, 1, 20)
    score = rng.uniform(size=400)
    label = rng.integers(0, 5, 400).astype(numpy.int32)
    merged = numpy.concatenate([
        numpy.flatnonzero(label == c)[non_maximum_suppression(bbox[label == c], 0.4,
                                                              score[label == c])]
        for c in range(5)])
    merged = merged[numpy.argsort(-score[merged], kind='stable')]
    numpy.testing.assert_equal(batched_non_maximum_suppression(bbox, score, label, 0.4), merged)


def test_many_boxes():
    # 20,000 proposals, Faster R-CNN's pre-NMS count at training: its speed is bench/nms.py's.
    rng = numpy.random.default_rng(7)
    bbox = generate_random_bbox(20000, (600, 800), 16, 256, rng=rng)
    score = rng.uniform(size=len(bbox)).astype(numpy.float32)
    selected = non_maximum_suppression(bbox, 0.7, score)
    assert 0 < len(selected) < len(bbox)
    assert (bbox_iou(bbox[selected[:300]], bbox[selected[:300]]) < 0.7).sum() == 300 * 299


@pytest.mark.parametrize('args, error, message', [
    ((numpy.zeros((3, 5)), 0.5), ValueError,
     r'non_maximum_suppression: bbox must have shape \(R, 4\), but got shape \(3, 5\)'),
    ((numpy.zeros(4), 0.5), ValueError, r'bbox must have shape \(R, 4\)'),
    ((numpy.zeros((3, 4), bool), 0.5), TypeError, 'bbox must be an integer or floating-point'),
    ((numpy.zeros((3, 4)), '0.5'), TypeError, 'thresh must be a real number, but got str'),
    ((numpy.zeros((3, 4)), float('nan')), ValueError, 'thresh must not be NaN'),
    ((numpy.zeros((3, 4)), 0.5, numpy.zeros(2)), ValueError,
     r'score must have shape \(R,\) with R = len\(bbox\) = 3, but got shape \(2,\)'),
    ((numpy.zeros((3, 4)), 0.5, numpy.zeros((3, 1))), ValueError, 'score must have shape'),
    ((numpy.zeros((3, 4)), 0.5, None, -1), ValueError, 'limit must be at least 0, but got -1'),
    ((numpy.zeros((3, 4)), 0.5, None, 2.0), TypeError, 'limit must be None or an int'),
])
def test_invalid_arguments(args, error, message):
    with pytest.raises(error, match=message):
        non_maximum_suppression(*args)


@pytest.mark.parametrize('score, label, error, message', [
    (None, numpy.zeros(3, int), TypeError, r'^batched_non_maximum_suppression: score must be an '
                                           r'array of shape \(R,\), but got None$'),
    (numpy.zeros(3), None, TypeError, r'^batched_non_maximum_suppression: label must be an array '
                                      r'of shape \(R,\), but got None$'),
    (numpy.zeros(3), numpy.zeros(2, int), ValueError,
     r'^batched_non_maximum_suppression: label must have shape \(R,\) with R = len\(bbox\) = 3, '
     r'but got shape \(2,\)$'),
    (numpy.zeros(3), numpy.zeros(3), TypeError, 'label must be an integer array, but got dtype '
                                                'float64'),
])
def test_batched_invalid_arguments(score, label, error, message):
    with pytest.raises(error, match=message):
        batched_non_maximum_suppression(numpy.zeros((3, 4)), score, label, 0.5)


@pytest.mark.parametrize('score, error, message', [
    (numpy.zeros((3, 1)), ValueError,
     r'^non_maximum_suppression: score must have shape \(R,\), but got shape \(3, 1\)$'),
    (numpy.zeros(3, bool), TypeError,
     r'^non_maximum_suppression: score must be an integer or floating-point array, but got '
     r'dtype bool$'),
])
def test_score_messages_whole(score, error, message):
    with pytest.raises(error, match=message):
        non_maximum_suppression(numpy.zeros((3, 4)), 0.5, score)


def test_a_block_that_keeps_only_flat_boxes(small_blocks):
    # The best-scored block holds only flat boxes (kept, but outside the spatial index, which
    # then has nothing to look up); the boxes after it are suppressed as usual, to the last.
    rng = numpy.random.default_rng(10)
    bbox = _random_bbox(rng, 300, 100, 1, 30)
    bbox[:40, 2] = bbox[:40, 0]
    bbox[-1] = [1000, 1000, 1010, 1010]              # the last box is alone: kept
    score = numpy.arange(300, 0, -1, dtype=numpy.float64)
    for thresh in (0.3, 0.7):
        expected = _reference(bbox, thresh, score)
        assert set(range(40)) <= set(expected.tolist()) and 299 in expected
        numpy.testing.assert_equal(non_maximum_suppression(bbox, thresh, score), expected)


def _on_device(x):
    from framework import backend
    from framework.testing import emulated_device  # noqa: F401  (registers '@emulated')
    return backend.to_device('@emulated', x)


@pytest.mark.parametrize('call, error, message', [
    (lambda: non_maximum_suppression(_on_device(numpy.zeros((3, 4))), 0.5, numpy.zeros(3)),
     ValueError, r'^non_maximum_suppression: all inputs must be on one device, but bbox is on '
                 r'@emulated and score is on @numpy; move them with to_device first$'),
    (lambda: batched_non_maximum_suppression(numpy.zeros((3, 4)), numpy.zeros(3),
                                             _on_device(numpy.zeros(3, int)), 0.5),
     ValueError, r'^batched_non_maximum_suppression: all inputs must be on one device, but '
                 r'bbox is on @numpy and label is on @emulated; move them with to_device first$'),
    (lambda: non_maximum_suppression(numpy.zeros((3, 4)), '0.5'), TypeError,
     r'^non_maximum_suppression: thresh must be a real number, but got str$'),
    (lambda: non_maximum_suppression(numpy.zeros((3, 4)), 0.5, None, 2.0), TypeError,
     r'^non_maximum_suppression: limit must be None or an int, but got float$'),
    (lambda: batched_non_maximum_suppression(numpy.zeros((3, 4)), numpy.zeros(3),
                                             numpy.zeros((3, 1), int), 0.5), ValueError,
     r'^batched_non_maximum_suppression: label must have shape \(R,\), but got shape '
     r'\(3, 1\)$'),
    (lambda: batched_non_maximum_suppression(numpy.zeros((3, 4)), numpy.zeros(3),
                                             numpy.array(['a'] * 3), 0.5), TypeError,
     r'^batched_non_maximum_suppression: label must be an integer or floating-point array, '
     r'but got dtype <U1$'),
])
def test_messages_whole(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_float32_boxes_are_compared_in_float32_as_bbox_iou_does():
    # Pairs whose float32 IoU (bbox_iou's) is exactly the threshold while their float64 IoU
    # is below it: suppressed, as documented ("exactly when bbox_iou of the pair is >=").
    rng = numpy.random.default_rng(11)
    found = 0
    for _ in range(200):
        a = _random_bbox(rng, 1, 50, 5, 30, numpy.float32)
        b = (a + rng.uniform(-2, 2, (1, 4))).astype(numpy.float32)
        thresh = float(bbox_iou(a, b)[0, 0])
        if bbox_iou(a.astype(numpy.float64), b.astype(numpy.float64))[0, 0] >= thresh:
            continue
        found += 1
        numpy.testing.assert_equal(non_maximum_suppression(numpy.concatenate((a, b)), thresh),
                                   [0])
    assert found > 10
