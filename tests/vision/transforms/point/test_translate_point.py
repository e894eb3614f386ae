import numpy
import pytest

from vision.transforms import translate_point


# Ported from ChainerCV's tests/transforms_tests/point_tests/test_translate_point.py.
def test_chainercv_translate_point_ndarray():
    point = numpy.random.uniform(low=0., high=32., size=(3, 10, 2))
    out = translate_point(point, y_offset=3, x_offset=5)
    expected = numpy.empty_like(point)
    expected[:, :, 0] = point[:, :, 0] + 3
    expected[:, :, 1] = point[:, :, 1] + 5
    numpy.testing.assert_array_equal(out, expected)


def test_chainercv_translate_point_list():
    point = [numpy.random.uniform(low=0., high=32., size=(10, 2))]
    out = translate_point(point, y_offset=3, x_offset=5)
    for i, pnt in enumerate(point):
        expected = numpy.empty_like(pnt)
        expected[:, 0] = pnt[:, 0] + 3
        expected[:, 1] = pnt[:, 1] + 5
        numpy.testing.assert_array_equal(out[i], expected)


def test_dtype_and_input_untouched():
    point = numpy.ones((1, 2, 2), numpy.float32)
    out = translate_point(point, -0.5, 2)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, [[[0.5, 3], [0.5, 3]]])
    numpy.testing.assert_array_equal(point, 1)


def test_bad_offset():
    with pytest.raises(TypeError, match='translate_point: y_offset must be a real number'):
        translate_point(numpy.zeros((1, 2, 2)), None)
