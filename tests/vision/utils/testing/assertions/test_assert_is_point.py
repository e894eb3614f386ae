import numpy
import pytest

from vision.utils import assert_is_point


def _points(low, high, shape=(1, 10, 2), dtype=numpy.float32):
    return numpy.random.uniform(low, high, size=shape).astype(dtype)


def _visible(shape=(1, 10), dtype=bool):
    return numpy.random.randint(0, 2, size=shape).astype(dtype)


@pytest.mark.parametrize('point, visible, size, n_point', [
    (_points(-1, 1), None, None, None),
    (_points(-1, 1), _visible(), None, None),
    (_points(0, 32), None, (32, 32), None),
    (_points(0, 32), _visible(), (32, 32), None),
    (_points(-1, 1), _visible(), None, 10),
    ([_points(0, 4, (3, 2)), _points(0, 4, (5, 2))], None, (4, 4), None),  # a list of arrays
    # Points outside the image are fine when they are not visible.
    (numpy.array([[[1, 1], [50, 50]]], numpy.float32), numpy.array([[True, False]]), (32, 32),
     2),
])
def test_valid(point, visible, size, n_point):
    assert_is_point(point, visible, size, n_point)


@pytest.mark.parametrize('point, visible, size, n_point, message', [
    ([((1., 2.), (4., 8.))], None, None, None, r'point\[0\] must be a numpy.ndarray, but got '
                                               r'a value of type tuple'),
    (_points(-1, 1, dtype=numpy.int32), None, None, None,
     r'point\[0\] must have dtype float32, but got dtype int32'),
    (_points(-1, 1, (1, 10, 3)), None, None, None, r'point\[0\] must have shape \(K, 2\)'),
    (_points(-1, 1, (1, 4, 2)), [(True, True, True, True)], None, None,
     r'visible\[0\] must be a numpy.ndarray'),
    (_points(-1, 1), _visible(dtype=numpy.int32), None, None,
     r'visible\[0\] must have dtype bool, but got dtype int32'),
    (_points(-1, 1), _visible((1, 10, 2)), None, None,
     r'visible\[0\] must have shape \(10,\), one entry per point'),
    (_points(-1, 1), _visible((1, 9)), None, None, r'visible\[0\] must have shape \(10,\)'),
    (_points(32, 64), None, (32, 32), None, r'the visible points of point\[0\] must lie within '
                                            r'the image of size \(32, 32\)'),
    (_points(32, 64), numpy.ones((1, 10), bool), (32, 32), None,
     r'the visible points of point\[0\] must lie within the image'),
    (_points(-1, 1), _visible(), None, 11, r'point\[0\] must have 11 points, but got 10'),
    (_points(-1, 1), _visible((2, 10)), None, None,
     r'visible must have one entry per instance \(1\), but got 2'),
    (3.0, None, None, None,
     'point must be an array or a list of arrays, but got a value of type float'),
])
def test_invalid(point, visible, size, n_point, message):
    with pytest.raises(AssertionError, match='assert_is_point: ' + message):
        assert_is_point(point, visible, size, n_point)
