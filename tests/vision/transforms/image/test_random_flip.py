import random

import numpy
import pytest

from vision.transforms import flip, random_flip


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_random_flip.py.
def test_chainercv_random_flip():
    img = numpy.random.uniform(size=(3, 24, 24))
    out, param = random_flip(img, y_random=True, x_random=True, return_param=True)
    expected = img
    if param['y_flip']:
        expected = expected[:, ::-1, :]
    if param['x_flip']:
        expected = expected[:, :, ::-1]
    numpy.testing.assert_array_equal(out, expected)


def test_flips_are_the_returned_ones():
    img = numpy.random.default_rng(0).uniform(size=(2, 5, 6))
    rng = numpy.random.default_rng(1)
    seen = set()
    for _ in range(40):
        out, param = random_flip(img, y_random=True, x_random=True, return_param=True,
                                 rng=rng)
        numpy.testing.assert_array_equal(out, flip(img, **param))
        seen.add((param['y_flip'], param['x_flip']))
    assert len(seen) == 4


def test_only_the_asked_directions():
    img = numpy.zeros((1, 3, 3))
    for seed in range(10):
        _, param = random_flip(img, x_random=True, return_param=True,
                               rng=numpy.random.default_rng(seed))
        assert param['y_flip'] is False
        assert isinstance(param['x_flip'], bool)


def test_reproducible():
    img = numpy.zeros((1, 3, 3))
    draws = [random_flip(img, True, True, return_param=True,
                         rng=numpy.random.default_rng(9))[1] for _ in range(2)]
    assert draws[0] == draws[1]
    random.seed(9)
    first = random_flip(img, True, True, return_param=True)[1]
    random.seed(9)
    assert first == {'y_flip': random.choice([True, False]),
                     'x_flip': random.choice([True, False])}


def test_copy():
    img = numpy.zeros((1, 3, 3))
    out = random_flip(img, True, True, copy=True, rng=numpy.random.default_rng(0))
    assert not numpy.shares_memory(out, img)


def test_bad_rng():
    with pytest.raises(TypeError, match='random_flip: rng must be a numpy.random.Generator'):
        random_flip(numpy.zeros((1, 3, 3)), rng=3)
