import numpy
import pytest

from vision.transforms import flip


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_flip_transform.py.
@pytest.mark.parametrize('y_flip', [False, True])
@pytest.mark.parametrize('x_flip', [False, True])
@pytest.mark.parametrize('copy', [False, True])
def test_flip(y_flip, x_flip, copy):
    img = numpy.random.default_rng(0).uniform(size=(3, 24, 20))
    out = flip(img, y_flip=y_flip, x_flip=x_flip, copy=copy)
    expected = img
    if y_flip:
        expected = expected[:, ::-1, :]
    if x_flip:
        expected = expected[:, :, ::-1]
    numpy.testing.assert_array_equal(out, expected)
    assert numpy.shares_memory(out, img) is not copy


def test_pixel_moves_to_mirrored_place():
    img = numpy.zeros((1, 4, 5), numpy.float32)
    img[0, 1, 0] = 1
    assert flip(img, y_flip=True, x_flip=True)[0, 4 - 1 - 1, 5 - 1 - 0] == 1


def test_bad_image():
    with pytest.raises(ValueError, match='flip: img must be a 3-dimensional array'):
        flip(numpy.zeros((1, 1, 4, 4)), x_flip=True)
