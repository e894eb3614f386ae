import numpy
import pytest

from vision.utils import mask_to_bbox


@pytest.mark.parametrize('mask, expected', [
    ([[[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 1, 1]]], [[1, 1, 3, 4]]),
    ([[[0, 0], [0, 1]], [[1, 0], [0, 1]]], [[1, 1, 2, 2], [0, 0, 2, 2]]),
    ([[[0, 0], [0, 0]], [[0, 1], [0, 0]]], [[0, 0, 0, 0], [0, 1, 1, 2]]),
    (numpy.zeros((0, 3, 3)), numpy.zeros((0, 4))),
    (numpy.zeros((2, 0, 3)), numpy.zeros((2, 4))),
])
def test_mask_to_bbox_cases(mask, expected):
    bbox = mask_to_bbox(numpy.asarray(mask, bool))
    assert isinstance(bbox, numpy.ndarray)
    assert bbox.dtype == numpy.float32
    numpy.testing.assert_equal(bbox, numpy.asarray(expected, numpy.float32))


def test_mask_to_bbox_of_drawn_boxes():
    rng = numpy.random.default_rng(0)
    mask = numpy.zeros((20, 30, 40), bool)
    expected = []
    for m in mask:
        y0, x0 = rng.integers(0, 20), rng.integers(0, 30)
        y1, x1 = rng.integers(y0 + 1, 31), rng.integers(x0 + 1, 41)
        m[y0, x0:x1] = True  # the top edge and the left edge, plus one corner
        m[y0:y1, x0] = True
        m[y1 - 1, x1 - 1] = True
        expected.append((y0, x0, y1, x1))
    numpy.testing.assert_equal(mask_to_bbox(mask), expected)


def test_mask_to_bbox_invalid():
    with pytest.raises(TypeError, match='mask_to_bbox: mask must be a boolean array, but got '
                                        'dtype int64'):
        mask_to_bbox(numpy.zeros((1, 2, 2), numpy.int64))
    with pytest.raises(ValueError, match=r'mask must have shape \(R, H, W\), but got shape '
                                         r'\(2, 2\)'):
        mask_to_bbox(numpy.zeros((2, 2), bool))
