import numpy
import pytest

from vision.models.detection.ssd import SSD300, SSD512, MultiboxCoder
from vision.models.detection.ssd.multibox_coder import default_bbox
from vision.utils import non_maximum_suppression


def _coder():
    return MultiboxCoder((4, 2), ((2,), (2, 3)), (8, 16), (8, 16, 32), (0.1, 0.2))


def _chainercv_default_bbox(grids, aspect_ratios, steps, sizes):
    """ChainerCV's loops, written out."""
    boxes = []
    for k, grid in enumerate(grids):
        for v in range(grid):
            for u in range(grid):
                cy, cx = (v + 0.5) * steps[k], (u + 0.5) * steps[k]
                s = sizes[k]
                boxes.append((cy, cx, s, s))
                s = numpy.sqrt(sizes[k] * sizes[k + 1])
                boxes.append((cy, cx, s, s))
                s = sizes[k]
                for ar in aspect_ratios[k]:
                    boxes.append((cy, cx, s / numpy.sqrt(ar), s * numpy.sqrt(ar)))
                    boxes.append((cy, cx, s * numpy.sqrt(ar), s / numpy.sqrt(ar)))
    return numpy.array(boxes)


@pytest.mark.parametrize('cls, count', [(SSD300, 8732), (SSD512, 24564)])
def test_default_boxes_are_chainercvs(cls, count):
    grids = cls._extractor.grids
    args = (grids, cls._aspect_ratios, cls._steps, cls._sizes)
    box = default_bbox(*args)
    assert box.shape == (count, 4) and box.dtype == numpy.float64
    numpy.testing.assert_allclose(box, _chainercv_default_bbox(*args), rtol=1e-12)


def test_lengths_are_checked():
    with pytest.raises(ValueError, match='sizes must have 3 entries'):
        MultiboxCoder((4, 2), ((2,), (2,)), (8, 16), (8, 16), (0.1, 0.2))


def test_encode_then_decode_gives_the_boxes_back():
    coder = _coder()
    bbox = numpy.array([[2, 3, 14, 12], [10, 4, 30, 31]], numpy.float32)
    label = numpy.array([1, 0], numpy.int32)
    mb_loc, mb_label = coder.encode(bbox, label)
    assert mb_loc.dtype == numpy.float32 and mb_loc.shape == (len(coder.default_bbox), 4)
    assert mb_label.dtype == numpy.int32
    assert set(mb_label.tolist()) == {0, 1, 2}
    decoded = coder.decode_bbox(mb_loc)
    for i, target in enumerate(mb_label):
        if target:
            numpy.testing.assert_allclose(decoded[i], bbox[label == target - 1][0], atol=1e-4)
    numpy.testing.assert_array_equal(mb_loc[mb_label == 0], 0)


def test_every_box_takes_its_best_default_box_even_below_the_threshold():
    coder = _coder()
    bbox = numpy.array([[0, 0, 3, 3]], numpy.float32)
    _, mb_label = coder.encode(bbox, numpy.array([2], numpy.int32))
    assert (mb_label == 3).sum() == 1


def test_encode_without_boxes_is_all_background():
    coder = _coder()
    mb_loc, mb_label = coder.encode(numpy.zeros((0, 4), numpy.float32),
                                    numpy.zeros(0, numpy.int32))
    assert not mb_loc.any() and not mb_label.any()
    assert mb_loc.shape == (len(coder.default_bbox), 4)


def test_decode_suppresses_class_by_class_in_chainercvs_order():
    coder = _coder()
    rng = numpy.random.RandomState(0)
    K = len(coder.default_bbox)
    mb_loc = rng.normal(0, 1, (K, 4)).astype(numpy.float32)
    mb_conf = rng.normal(0, 2, (K, 4)).astype(numpy.float32)
    bbox, label, score = coder.decode(mb_loc, mb_conf, 0.3, 0.2)
    assert bbox.dtype == numpy.float32 and label.dtype == numpy.int32
    assert score.dtype == numpy.float32
    prob = numpy.exp(mb_conf) / numpy.exp(mb_conf).sum(axis=1, keepdims=True)
    all_bbox = coder.decode_bbox(mb_loc).astype(numpy.float32)
    expected = []
    for lb in range(3):
        keep = prob[:, lb + 1] >= 0.2
        b, s = all_bbox[keep], prob[keep, lb + 1]
        index = non_maximum_suppression(b, 0.3, s)
        expected += [(lb, *b[i], s[i]) for i in index]
    expected = numpy.array(expected)
    numpy.testing.assert_array_equal(label, expected[:, 0])
    numpy.testing.assert_allclose(bbox, expected[:, 1:5], rtol=1e-5)
    numpy.testing.assert_allclose(score, expected[:, 5], rtol=1e-5)


def test_decode_without_suppression_keeps_every_box_above_the_threshold():
    coder = _coder()
    K = len(coder.default_bbox)
    mb_conf = numpy.zeros((K, 3), numpy.float32)
    bbox, label, score = coder.decode(numpy.zeros((K, 4), numpy.float32), mb_conf, None, 0.3)
    assert len(bbox) == 2 * K
    numpy.testing.assert_array_equal(label, [0] * K + [1] * K)
    numpy.testing.assert_allclose(score, 1 / 3)


def test_default_boxes_longer_than_max_default_size_are_cut_about_their_centre():
    coder = MultiboxCoder((4, 2), ((2,), (2, 3)), (8, 16), (8, 16, 32), (0.1, 0.2),
                          max_default_size=20)
    uncut = _coder().default_bbox
    numpy.testing.assert_array_equal(coder.default_bbox[:, :2], uncut[:, :2])
    numpy.testing.assert_array_equal(coder.default_bbox[:, 2:], numpy.minimum(uncut[:, 2:], 20))
    assert (uncut[:, 2:] > 20).any()


def test_bbox_xform_clip_clamps_the_decoded_sizes_only():
    coder = MultiboxCoder((4, 2), ((2,), (2, 3)), (8, 16), (8, 16, 32), (0.1, 0.2),
                          bbox_xform_clip=1.0)
    K = len(coder.default_bbox)
    mb_loc = numpy.tile(numpy.array([[3, -2, 10, 2]], numpy.float32), (K, 1))
    clamped, free = coder.decode_bbox(mb_loc), _coder().decode_bbox(mb_loc)
    default = coder.default_bbox
    numpy.testing.assert_allclose(clamped[:, 2] - clamped[:, 0], default[:, 2] * numpy.e)
    numpy.testing.assert_allclose(clamped[:, 3] - clamped[:, 1], default[:, 3] * numpy.exp(0.4))
    numpy.testing.assert_allclose(clamped[:, [1, 3]], free[:, [1, 3]])
    numpy.testing.assert_allclose(clamped[:, :2] + clamped[:, 2:], free[:, :2] + free[:, 2:])


def test_decode_clips_the_boxes_to_clip_size_before_the_suppression():
    coder = _coder()
    K = len(coder.default_bbox)
    mb_loc = numpy.zeros((K, 4), numpy.float32)
    mb_loc[:, 2:] = 10
    mb_conf = numpy.zeros((K, 2), numpy.float32)
    bbox, _, _ = coder.decode(mb_loc, mb_conf, None, 0.1, clip_size=32)
    numpy.testing.assert_allclose(bbox, numpy.clip(coder.decode_bbox(mb_loc), 0, 32), rtol=1e-6)
    whole = (bbox == [0, 0, 32, 32]).all(axis=1)
    assert 1 < whole.sum() < K
    # Unclipped, the boxes overlap less than 0.99 and all survive; clipped, those that became
    # the whole input suppress one another.
    assert len(coder.decode(mb_loc, mb_conf, 0.99, 0.1)[0]) == K
    bbox, _, _ = coder.decode(mb_loc, mb_conf, 0.99, 0.1, clip_size=32)
    assert (bbox == [0, 0, 32, 32]).all(axis=1).sum() == 1


@pytest.mark.parametrize('nms_thresh', [None, 0.3])
def test_decode_keeps_topk_candidates_of_each_class_then_detections_per_img(nms_thresh):
    coder = _coder()
    rng = numpy.random.RandomState(1)
    K = len(coder.default_bbox)
    mb_loc = rng.normal(0, 1, (K, 4)).astype(numpy.float32)
    mb_conf = rng.normal(0, 2, (K, 4)).astype(numpy.float32)
    bbox, label, score = coder.decode(mb_loc, mb_conf, nms_thresh, 0.05, topk_candidates=5)
    prob = numpy.exp(mb_conf) / numpy.exp(mb_conf).sum(axis=1, keepdims=True)
    all_bbox = coder.decode_bbox(mb_loc).astype(numpy.float32)
    expected = []
    for lb in range(3):
        top = numpy.argsort(-prob[:, lb + 1])[:5]
        b, s = all_bbox[top], prob[top, lb + 1]
        index = numpy.arange(5) if nms_thresh is None else non_maximum_suppression(b, 0.3, s)
        expected += [(lb, *b[i], s[i]) for i in index]
    expected = numpy.array(expected)
    assert len(expected) < 15 or nms_thresh is None
    numpy.testing.assert_array_equal(label, expected[:, 0])
    numpy.testing.assert_allclose(bbox, expected[:, 1:5], rtol=1e-5)
    numpy.testing.assert_allclose(score, expected[:, 5], rtol=1e-5)

    best = coder.decode(mb_loc, mb_conf, nms_thresh, 0.05, topk_candidates=5,
                        detections_per_img=4)
    kept = numpy.sort(numpy.argsort(-score, kind='stable')[:4])
    kept = kept[numpy.argsort(label[kept], kind='stable')]
    for actual, expected in zip(best, (bbox, label, score)):
        numpy.testing.assert_array_equal(actual, expected[kept])
