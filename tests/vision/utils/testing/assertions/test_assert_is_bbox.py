import unittest

import numpy

from vision.utils import assert_is_bbox, testing


def _bbox(tl_low, tl_high, hw_low, hw_high, dtype=numpy.float32):
    tl = numpy.random.uniform(tl_low, tl_high, size=(10, 2))
    hw = numpy.random.uniform(hw_low, hw_high, size=(10, 2))
    return numpy.hstack((tl, tl + hw)).astype(dtype)


# The cases of ChainerCV's test, in its style.
@testing.parameterize(
    {'bbox': _bbox(-1, 1, 0.1, 1), 'valid': True},
    {'bbox': _bbox(0, 32, 0.1, 16), 'size': (48, 64), 'valid': True},
    {'bbox': numpy.zeros((0, 4), numpy.float32), 'size': (48, 64), 'valid': True},
    {'bbox': _bbox(20, 32, 16, 32), 'size': (16, 24), 'valid': False},
    {'bbox': _bbox(-1, 1, 0.1, 1, float), 'valid': False},
    {'bbox': _bbox(-1, 1, -1, -0.01), 'valid': False},
    {'bbox': numpy.random.uniform(-1, 1, size=(10, 5)).astype(numpy.float32), 'valid': False},
    {'bbox': numpy.random.uniform(-1, 1, size=(10, 4, 1)).astype(numpy.float32),
     'valid': False},
    {'bbox': ((0, 1, 2, 3), (1, 2, 3, 4)), 'valid': False},
    {'bbox': numpy.zeros((0, 3), numpy.float32), 'size': (48, 64), 'valid': False},
)
class TestAssertIsBbox(unittest.TestCase):

    def test_assert_is_bbox(self):
        size = getattr(self, 'size', None)
        if self.valid:
            assert_is_bbox(self.bbox, size)
        else:
            with self.assertRaises(AssertionError):
                assert_is_bbox(self.bbox, size)


@testing.parameterize(
    {'bbox': [[0, 0, 1, 1]],
     'message': 'bbox must be a numpy.ndarray, but got a value of type list'},
    {'bbox': numpy.zeros((1, 4)), 'message': 'bbox must have dtype float32, but got dtype '
                                             'float64'},
    {'bbox': numpy.zeros((2, 5), numpy.float32),
     'message': r'bbox must have shape \(R, 4\), but got shape \(2, 5\)'},
    {'bbox': numpy.array([[0, 0, 1, 1], [2, 0, 2, 1]], numpy.float32),
     'message': r'each box must have y_min < y_max, but box 1 is \[2.0, 0.0, 2.0, 1.0\] '
                r'\(1 of 2 boxes fail\)'},
    {'bbox': numpy.array([[0, 3, 1, 1]], numpy.float32),
     'message': 'each box must have x_min < x_max, but box 0'},
    {'bbox': numpy.array([[0, 0, 1, 1], [0, 0, 5, 1]], numpy.float32), 'size': (4, 4),
     'message': 'each box must have 0 <= y_min, 0 <= x_min, y_max <= 4 and x_max <= 4 '
                r'\(inside the image\), but box 1'},
    {'bbox': numpy.array([[-1, 0, 1, 1]], numpy.float32), 'size': (4, 4),
     'message': r'each box must have 0 <= y_min.*\(inside the image\), but box 0'},
)
class TestAssertIsBboxMessages(unittest.TestCase):

    def test_message(self):
        with self.assertRaisesRegex(AssertionError, 'assert_is_bbox: ' + self.message):
            assert_is_bbox(self.bbox, getattr(self, 'size', None))


def test_boxes_may_touch_the_image_border():
    assert_is_bbox(numpy.array([[0, 0, 48, 64]], numpy.float32), (48, 64))
