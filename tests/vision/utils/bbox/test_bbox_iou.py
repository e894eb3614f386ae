import warnings

import numpy
import pytest

from vision.utils import bbox_iou


def _explicit_iou(a, b):
    """IoU of two boxes from the definition, in float64."""
    height = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    width = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = height * width
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


@pytest.mark.parametrize('bbox_a, bbox_b, expected', [
    ([[0, 0, 8, 8]], [[3, 5, 10, 12], [9, 10, 11, 12], [0, 0, 8, 8]],
     [[(5 * 3) / (8 * 8 + 7 * 7 - 5 * 3), 0, 1]]),
    ([[3, 5, 10, 12], [9, 10, 11, 12], [0, 0, 8, 8]], [[0, 0, 8, 8]],
     [[(5 * 3) / (8 * 8 + 7 * 7 - 5 * 3)], [0], [1]]),
    (numpy.zeros((0, 4)), [[0, 0, 1, 1]], numpy.zeros((0, 1))),
    ([[0, 0, 1, 1]], numpy.zeros((0, 4)), numpy.zeros((1, 0))),
    # touching boxes and a box inside another
    ([[0, 0, 2, 2]], [[2, 0, 4, 2], [0, 2, 2, 4], [0.5, 0.5, 1.5, 1.5]], [[0, 0, 0.25]]),
])
def test_bbox_iou_cases(bbox_a, bbox_b, expected):
    iou = bbox_iou(numpy.asarray(bbox_a, numpy.float32), numpy.asarray(bbox_b, numpy.float32))
    assert isinstance(iou, numpy.ndarray)
    assert iou.dtype == numpy.float32
    numpy.testing.assert_equal(iou, numpy.asarray(expected, numpy.float32))


def test_bbox_iou_matches_definition():
    rng = numpy.random.default_rng(0)
    corner = rng.uniform(0, 50, (40, 2))
    bbox = numpy.concatenate([corner, corner + rng.uniform(0.5, 30, (40, 2))], axis=1)
    iou = bbox_iou(bbox[:25], bbox[25:])
    assert iou.dtype == numpy.float64
    expected = [[_explicit_iou(a, b) for b in bbox[25:]] for a in bbox[:25]]
    numpy.testing.assert_allclose(iou, expected, rtol=1e-12)
    assert (iou > 0).any() and (iou == 0).any()


@pytest.mark.parametrize('dtype, expected', [
    (numpy.int32, numpy.float64), (numpy.int64, numpy.float64), (numpy.uint8, numpy.float32),
    (numpy.float16, numpy.float32), (numpy.float64, numpy.float64),
])
def test_bbox_iou_dtypes(dtype, expected):
    bbox = numpy.array([[0, 0, 4, 4], [2, 2, 6, 6]], dtype=dtype)
    iou = bbox_iou(bbox, bbox)
    assert iou.dtype == expected
    numpy.testing.assert_allclose(iou, [[1, 4 / 28], [4 / 28, 1]], rtol=1e-6)


@pytest.mark.parametrize('dtype_a, dtype_b', [
    (numpy.float64, numpy.float32), (numpy.float32, numpy.float64),
])
def test_bbox_iou_mixed_dtypes(dtype_a, dtype_b):
    # Computed in the wider dtype of the two, whichever argument it is.
    bbox_a = numpy.array([[0, 0, 3, 3]], dtype_a)
    bbox_b = numpy.array([[1, 1, 4, 4]], dtype_b)
    iou = bbox_iou(bbox_a, bbox_b)
    assert iou.dtype == numpy.float64
    assert iou[0, 0] == 4 / 14


def test_bbox_iou_zero_area():
    point = numpy.array([[1, 1, 1, 1]], numpy.float32)
    box = numpy.array([[0, 0, 2, 2]], numpy.float32)
    assert bbox_iou(point, box)[0, 0] == 0
    assert numpy.isnan(bbox_iou(point, point)[0, 0])


def test_bbox_iou_no_floating_point_warnings():
    # Overflowing areas and intersections, 0 * inf and 0 / 0 give inf or NaN quietly: never a
    # RuntimeWarning (an error under -W error) from inside bbox_iou.
    bbox = numpy.array([[0, 0, 2e19, 2e19], [0, -3e38, 0, 3e38], [1, 1, 1, 1]], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        iou = bbox_iou(bbox, bbox)
    assert numpy.isnan(iou[2, 2]) and numpy.isnan(iou[1, 1])
    assert iou[0, 2] == 0


@pytest.mark.parametrize('bbox_a, bbox_b, message', [
    ([[0, 0, 8]], [[1, 1, 9, 9]], r'bbox_iou: bbox_a must have shape \(R, 4\), but got shape '
                                  r'\(1, 3\)'),
    ([[0, 0, 8, 0, 1]], [[1, 1, 9, 9]], 'bbox_a must have shape'),
    ([[0, 0, 8, 8]], [[1, 1, 9]], r'^bbox_iou: bbox_b must have shape \(R, 4\), but got shape '
                                  r'\(1, 3\)$'),
    ([[0, 0, 8, 8]], [[1, 1, 9, 9, 10]], 'bbox_b must have shape'),
    ([0, 0, 8, 8], [[1, 1, 9, 9]], r'but got shape \(4,\)'),
])
def test_bbox_iou_invalid_shape(bbox_a, bbox_b, message):
    bbox_a = numpy.array(bbox_a, numpy.float32)
    bbox_b = numpy.array(bbox_b, numpy.float32)
    # IndexError as in ChainerCV, and ValueError as the rest of the project.
    with pytest.raises(IndexError, match=message):
        bbox_iou(bbox_a, bbox_b)
    with pytest.raises(ValueError, match=message):
        bbox_iou(bbox_a, bbox_b)


def test_bbox_iou_invalid_dtype():
    bbox = numpy.zeros((1, 4), dtype=bool)
    with pytest.raises(TypeError, match='bbox_iou: bbox_a must be an integer or floating-point '
                                        'array, but got dtype bool'):
        bbox_iou(bbox, bbox)
