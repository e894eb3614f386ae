import numpy
import pytest

from vision.utils import assert_is_image


def _randint(*shape):
    return numpy.random.randint(0, 256, size=shape)


@pytest.mark.parametrize('img, color, check_range', [
    (_randint(3, 48, 64), True, True),
    (numpy.ones((3, 48, 64)) * 256, True, False),
    (_randint(1, 48, 64), False, True),
    (numpy.ones((1, 48, 64)) * 256, False, False),
    (numpy.zeros((3, 0, 5), numpy.float32), True, True),
])
def test_valid(img, color, check_range):
    assert_is_image(img, color, check_range)


@pytest.mark.parametrize('img, color, message', [
    (_randint(1, 48, 64), True, r'assert_is_image: img must have shape \(3, H, W\), but got '
                                r'shape \(1, 48, 64\)'),
    (_randint(4, 48, 64), True, r'shape \(3, H, W\)'),
    (_randint(3, 48, 64), False, r'shape \(1, H, W\)'),
    (_randint(48, 64), True, r'but got shape \(48, 64\)'),
    (numpy.ones((3, 48, 64)) * 256, True, r'the values of img must be in \[0, 255\], but got '
                                          r'values in \[256.0, 256.0\]'),
    (numpy.ones((3, 48, 64)) * -1, True, r'must be in \[0, 255\]'),
    (numpy.ones((1, 48, 64)) * 256, False, r'must be in \[0, 255\]'),
    (numpy.full((3, 2, 2), numpy.nan), True, r'must be in \[0, 255\]'),
    ([[[0]]], False, 'img must be a numpy.ndarray, but got a value of type list'),
])
def test_invalid(img, color, message):
    with pytest.raises(AssertionError, match=message):
        assert_is_image(img, color)
