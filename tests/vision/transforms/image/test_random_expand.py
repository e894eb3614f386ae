import random

import numpy
import pytest

from vision.transforms import random_expand


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_random_expand.py.
@pytest.mark.parametrize('max_ratio', [1, 4])
def test_chainercv_random_expand(max_ratio):
    img = numpy.random.uniform(-1, 1, size=(3, 64, 32))
    random_expand(img)
    numpy.testing.assert_array_equal(random_expand(img, max_ratio=1), img)
    out, param = random_expand(img, max_ratio=max_ratio, return_param=True)
    y_offset, x_offset, ratio = param['y_offset'], param['x_offset'], param['ratio']
    numpy.testing.assert_array_equal(out[:, y_offset:y_offset + 64, x_offset:x_offset + 32],
                                     img)
    assert 1 <= ratio <= max_ratio
    assert out.shape[1:] == (int(64 * ratio), int(32 * ratio))
    random_expand(img, max_ratio=2)


@pytest.mark.parametrize('fill', [128, (104, 117, 123), numpy.random.uniform(255, size=3)])
def test_chainercv_fill(fill):
    img = numpy.random.uniform(-1, 1, size=(3, 64, 32))
    rng = numpy.random.default_rng(0)
    while True:
        out, param = random_expand(img, fill=fill, return_param=True, rng=rng)
        if param['y_offset'] > 0 or param['x_offset'] > 0:
            break
    expected = (fill,) * 3 if isinstance(fill, int) else fill
    numpy.testing.assert_array_equal(out[:, 0, 0], expected)


def test_canvas_is_filled_outside_the_image():
    img = numpy.ones((2, 5, 7), numpy.float32)
    out, param = random_expand(img, max_ratio=3, fill=(-1, -2), return_param=True,
                               rng=numpy.random.default_rng(4))
    assert out.dtype == numpy.float32
    inside = numpy.zeros(out.shape[1:], bool)
    inside[param['y_offset']:param['y_offset'] + 5, param['x_offset']:param['x_offset'] + 7] = 1
    numpy.testing.assert_array_equal(out[:, inside], 1)
    numpy.testing.assert_array_equal(out[0, ~inside], -1)
    numpy.testing.assert_array_equal(out[1, ~inside], -2)


def test_no_expansion():
    img = numpy.zeros((1, 3, 3))
    out, param = random_expand(img, max_ratio=0.5, return_param=True)
    assert out is img
    assert param == {'ratio': 1, 'y_offset': 0, 'x_offset': 0}


def test_reproducible():
    img = numpy.zeros((1, 10, 20))
    params = [random_expand(img, return_param=True, rng=numpy.random.default_rng(6))[1]
              for _ in range(2)]
    assert params[0] == params[1]
    rng = numpy.random.default_rng(6)
    ratio = rng.uniform(1, 4)
    assert params[0] == {'ratio': ratio,
                         'y_offset': rng.integers(0, int(10 * ratio) - 10, endpoint=True),
                         'x_offset': rng.integers(0, int(20 * ratio) - 20, endpoint=True)}
    random.seed(6)
    first = random_expand(img, return_param=True)[1]
    random.seed(6)
    assert first['ratio'] == random.uniform(1, 4)


def test_bad_fill():
    with pytest.raises(ValueError, match='random_expand: fill must be a number, but got'):
        random_expand(numpy.zeros((1, 3, 3)), fill=(1, 2))
