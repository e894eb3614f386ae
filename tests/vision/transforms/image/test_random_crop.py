import random

import numpy
import pytest

from vision.transforms import random_crop


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_random_crop.py.
def test_chainercv_random_crop():
    img = numpy.random.uniform(size=(3, 48, 32))
    out, param = random_crop(img, (48, 32), return_param=True)
    numpy.testing.assert_array_equal(out, img)
    assert param == {'y_slice': slice(0, 48), 'x_slice': slice(0, 32)}
    assert random_crop(img, (24, 12)).shape[1:] == (24, 12)


def test_crop_is_the_returned_region():
    img = numpy.random.default_rng(0).uniform(size=(2, 20, 30))
    for seed in range(20):
        out, param = random_crop(img, (7, 11), return_param=True,
                                 rng=numpy.random.default_rng(seed))
        assert out.shape == (2, 7, 11)
        numpy.testing.assert_array_equal(out, img[:, param['y_slice'], param['x_slice']])


def test_reproducible_with_a_seeded_generator():
    img = numpy.zeros((1, 50, 50))
    params = [random_crop(img, (5, 5), return_param=True, rng=numpy.random.default_rng(42))[1]
              for _ in range(2)]
    assert params[0] == params[1]
    rng = numpy.random.default_rng(42)
    assert params[0]['y_slice'].start == rng.integers(0, 45, endpoint=True)
    assert params[0]['x_slice'].start == rng.integers(0, 45, endpoint=True)


def test_python_random_by_default():
    img = numpy.zeros((1, 50, 50))
    random.seed(5)
    first = random_crop(img, (5, 5), return_param=True)[1]
    random.seed(5)
    assert random_crop(img, (5, 5), return_param=True)[1] == first
    random.seed(5)
    assert first['y_slice'].start == random.randint(0, 45)


def test_every_offset_is_drawn():
    img = numpy.zeros((1, 4, 3))
    rng = numpy.random.default_rng(0)
    starts = {random_crop(img, (2, 3), return_param=True, rng=rng)[1]['y_slice'].start
              for _ in range(200)}
    assert starts == {0, 1, 2}


def test_view_or_copy():
    img = numpy.zeros((1, 6, 6))
    assert numpy.shares_memory(random_crop(img, (2, 2)), img)
    assert not numpy.shares_memory(random_crop(img, (2, 2), copy=True), img)


def test_bad_arguments():
    with pytest.raises(ValueError, match='random_crop: size must not exceed the image size'):
        random_crop(numpy.zeros((1, 6, 6)), (7, 6))
    with pytest.raises(TypeError, match='random_crop: rng must be a numpy.random.Generator or '
                                        'None, but got RandomState'):
        random_crop(numpy.zeros((1, 6, 6)), (2, 2), rng=numpy.random.RandomState(0))
