import numpy
import pytest

from vision.transforms import center_crop


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_center_crop.py.
def test_chainercv_center_crop():
    img = numpy.random.uniform(size=(3, 48, 32))
    out, param = center_crop(img, (24, 16), return_param=True)
    numpy.testing.assert_array_equal(out, img[:, param['y_slice'], param['x_slice']])
    assert param['y_slice'] == slice(12, 36)
    assert param['x_slice'] == slice(8, 24)


@pytest.mark.parametrize('in_size, size, y_start', [
    (10, 10, 0), (10, 9, 0), (10, 7, 2), (11, 8, 2), (9, 4, 2), (9, 6, 2), (12, 1, 6)])
def test_offsets_round_halves_to_even(in_size, size, y_start):
    img = numpy.zeros((1, in_size, 5))
    _, param = center_crop(img, (size, 5), return_param=True)
    assert param['y_slice'] == slice(y_start, y_start + size)
    assert y_start == int(round((in_size - size) / 2))


def test_view_or_copy():
    img = numpy.zeros((1, 6, 6))
    assert numpy.shares_memory(center_crop(img, (2, 2)), img)
    assert not numpy.shares_memory(center_crop(img, (2, 2), copy=True), img)


def test_too_large():
    with pytest.raises(ValueError, match=r'center_crop: size must not exceed the image size '
                                         r'\(6, 6\), but got \(7, 2\)'):
        center_crop(numpy.zeros((1, 6, 6)), (7, 2))
