import importlib.util

import numpy
import pytest
from PIL import Image

from vision.transforms import flip, rotate
from vision.transforms.image.rotate import rotated_size

CV2_INSTALLED = importlib.util.find_spec('cv2') is not None
FILTERS = [Image.NEAREST, Image.BILINEAR, Image.BICUBIC]


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_rotate.py.
@pytest.mark.parametrize('interpolation', FILTERS)
@pytest.mark.parametrize('fill', [-1, 0, 100])
@pytest.mark.parametrize('shape', [(3, 32, 24), (1, 32, 24)])
def test_chainercv_mirror_symmetry(fake_chainer, interpolation, fill, shape):
    fake_chainer.cv_rotate_backend = 'PIL'
    rng = numpy.random.default_rng(0)
    img = rng.uniform(0, 256, size=shape).astype(numpy.float32)
    angle = rng.uniform(-180, 180)
    out = rotate(img, angle, fill=fill, interpolation=interpolation)
    expected = flip(rotate(flip(img, x_flip=True), -angle, fill=fill,
                           interpolation=interpolation), x_flip=True)
    if interpolation == Image.NEAREST:
        assert numpy.mean(out == expected) > 0.99
    else:
        numpy.testing.assert_almost_equal(out, expected, decimal=3)


@pytest.mark.parametrize('backend', [None, 'PIL'])
@pytest.mark.parametrize('shape', [(3, 32, 24), (1, 32, 24)])
def test_chainercv_shapes(fake_chainer, backend, shape):
    fake_chainer.cv_rotate_backend = backend
    rng = numpy.random.default_rng(1)
    for _ in range(10):
        img = rng.uniform(0, 256, size=shape).astype(numpy.float32)
        angle = rng.uniform(-180, 180)
        assert rotate(img, angle).shape[1:] == rotate(img, -angle).shape[1:]
        assert rotate(img, angle, expand=False).shape == img.shape


@pytest.mark.skipif(CV2_INSTALLED, reason='cv2 is installed')
def test_chainercv_cv2_backend_without_cv2(fake_chainer):
    fake_chainer.cv_rotate_backend = 'cv2'
    with pytest.raises(ValueError, match='rotate: chainer.config.cv_rotate_backend is'):
        rotate(numpy.zeros((3, 32, 24), numpy.float32), 10)


@pytest.mark.parametrize('k', [-3, -2, -1, 0, 1, 2, 3, 4])
@pytest.mark.parametrize('interpolation', FILTERS)
def test_quarter_turns_are_exact(k, interpolation):
    img = numpy.random.default_rng(2).uniform(0, 255, (3, 7, 10)).astype(numpy.float32)
    out = rotate(img, 90 * k, interpolation=interpolation)
    numpy.testing.assert_array_equal(out, numpy.rot90(img, k, axes=(1, 2)))


def test_against_pillow_per_channel():
    img = numpy.random.default_rng(3).uniform(0, 255, (4, 15, 21)).astype(numpy.float32)
    fill = (1, 2, 3, 4)
    out = rotate(img, 33.3, fill=fill, interpolation='bicubic')
    for ch, f, o in zip(img, fill, out):
        expected = Image.fromarray(ch).rotate(33.3, resample=Image.BICUBIC, expand=True,
                                              fillcolor=f)
        numpy.testing.assert_array_equal(o, numpy.asarray(expected))


def test_fill_outside():
    img = numpy.ones((2, 10, 10), numpy.float32)
    out = rotate(img, 45, fill=(-5, 7), interpolation='nearest')
    assert out[0, 0, 0] == -5 and out[1, 0, 0] == 7
    assert out[0, out.shape[1] // 2, out.shape[2] // 2] == 1


def test_rotation_is_counter_clockwise():
    img = numpy.zeros((1, 9, 9), numpy.float32)
    img[0, 4, 8] = 1  # the middle of the right edge goes to the middle of the top edge
    out = rotate(img, 90)
    assert out[0, 0, 4] == 1


def test_rotated_size_is_pillow_size():
    rng = numpy.random.default_rng(4)
    for _ in range(300):
        H, W = rng.integers(1, 50, size=2)
        angle = rng.choice([rng.uniform(-400, 400), 45 * rng.integers(-9, 9)])
        for expand in (True, False):
            out = rotate(numpy.zeros((1, H, W), numpy.float32), angle, expand=expand)
            assert out.shape[1:] == rotated_size((H, W), angle, expand)


def test_dtypes():
    img = numpy.random.default_rng(5).integers(0, 256, (3, 8, 8)).astype(numpy.uint8)
    out = rotate(img, 30, interpolation='bicubic')
    assert out.dtype == numpy.uint8
    assert rotate(img.astype(numpy.float64), 30).dtype == numpy.float64
    assert rotate(img > 100, 30, interpolation='nearest').dtype == bool
    assert rotate(numpy.zeros((0, 8, 6), numpy.float32), 90).shape == (0, 6, 8)


def test_bad_arguments():
    img = numpy.zeros((3, 8, 8), numpy.float32)
    with pytest.raises(ValueError, match='rotate: interpolation must be one of'):
        rotate(img, 30, interpolation=Image.LANCZOS)
    with pytest.raises(ValueError, match=r'rotate: fill must be a number or 3 numbers'):
        rotate(img, 30, fill=(1, 2))
    with pytest.raises(ValueError, match='rotate: img must be a 3-dimensional array'):
        rotate(img[0], 30)
