import numpy
import pytest

from vision.models.detection.mtcnn.suppression import suppress_by_iou, suppress_by_min_area


def greedy_reference(bbox, score, thresh, overlap):
    """Greedy NMS one box at a time: a box goes when ``overlap`` with a kept box is above
    ``thresh`` (computed in float32)."""
    order = numpy.argsort(-score.astype(numpy.float64), kind='stable')
    keep = []
    for i in order:
        if all(overlap(bbox[k], bbox[i]) <= numpy.float32(thresh) for k in keep):
            keep.append(i)
    return numpy.array(keep, dtype=numpy.int64)


def iou(a, b):
    inter = numpy.prod(numpy.maximum(numpy.minimum(a[2:], b[2:]) - numpy.maximum(a[:2], b[:2]),
                                     0))
    return inter / (numpy.prod(a[2:] - a[:2]) + numpy.prod(b[2:] - b[:2]) - inter)


def min_overlap(a, b):
    inter = numpy.prod(numpy.maximum(
        numpy.minimum(a[2:], b[2:]) - numpy.maximum(a[:2], b[:2]) + 1, 0))
    return inter / min(numpy.prod(a[2:] - a[:2] + 1), numpy.prod(b[2:] - b[:2] + 1))


def random_boxes(seed, n, integer):
    rng = numpy.random.RandomState(seed)
    low = rng.uniform(0, 60, (n, 2))
    bbox = numpy.concatenate([low, low + rng.uniform(5, 30, (n, 2))], axis=1)
    if integer:
        bbox = numpy.floor(bbox)
    return bbox.astype(numpy.float32), rng.uniform(0, 1, n).astype(numpy.float32)


def test_suppress_by_iou_keeps_a_box_whose_iou_is_exactly_the_threshold():
    # P-Net's integer boxes: 12x12 boxes 4 pixels apart have an IoU of exactly 0.5.
    bbox = numpy.array([[0, 0, 12, 12], [0, 4, 12, 16], [0, 3, 12, 15]], dtype=numpy.float32)
    score = numpy.array([0.9, 0.8, 0.7], dtype=numpy.float32)
    numpy.testing.assert_array_equal(suppress_by_iou(bbox, score, 0.5), [0, 1])


@pytest.mark.parametrize('thresh', [0.5, 0.7])
@pytest.mark.parametrize('integer', [False, True])
def test_suppress_by_iou_is_torchvisions_nms(thresh, integer):
    bbox, score = random_boxes(0, 120, integer)
    keep = suppress_by_iou(bbox, score, thresh)
    assert keep.dtype == numpy.int64
    numpy.testing.assert_array_equal(keep, greedy_reference(bbox, score, thresh, iou))


@pytest.mark.parametrize('integer', [False, True])
def test_suppress_by_min_area_is_the_reference_min_nms(integer):
    bbox, score = random_boxes(1, 120, integer)
    keep = suppress_by_min_area(bbox, score, 0.7)
    assert keep.dtype == numpy.int64
    numpy.testing.assert_array_equal(keep, greedy_reference(bbox, score, 0.7, min_overlap))


def test_suppress_by_min_area_drops_a_box_inside_a_better_one():
    bbox = numpy.array([[0, 0, 99, 99], [10, 10, 29, 29], [90, 90, 120, 120]],
                       dtype=numpy.float32)
    score = numpy.array([0.9, 0.95, 0.8], dtype=numpy.float32)
    numpy.testing.assert_array_equal(suppress_by_min_area(bbox, score, 0.7), [1, 2])


def test_suppressions_of_no_boxes_are_empty():
    bbox = numpy.zeros((0, 4), dtype=numpy.float32)
    score = numpy.zeros(0, dtype=numpy.float32)
    assert suppress_by_iou(bbox, score, 0.5).shape == (0,)
    assert suppress_by_min_area(bbox, score, 0.7).shape == (0,)
