import importlib.util

import numpy
import pytest
from PIL import Image

from vision.transforms import resize

CV2_INSTALLED = importlib.util.find_spec('cv2') is not None
PIL_FILTERS = [Image.NEAREST, Image.BILINEAR, Image.BICUBIC, Image.LANCZOS, Image.BOX,
               Image.HAMMING]


def _pillow_resize(ch, size, resample):
    """One channel resized by Pillow directly, the reference."""
    return numpy.asarray(Image.fromarray(ch.astype(numpy.float32)).resize(
        size[::-1], resample=resample))


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_resize.py.
@pytest.mark.parametrize('interpolation', PIL_FILTERS[:4])
@pytest.mark.parametrize('backend', [None, 'PIL', 'cv2'])
@pytest.mark.parametrize('C', [3, 1, 0])
def test_chainercv_shapes(fake_chainer, interpolation, backend, C):
    if backend == 'cv2' and not CV2_INSTALLED:
        pytest.skip('cv2 is not installed')
    fake_chainer.cv_resize_backend = backend
    img = numpy.random.uniform(size=(C, 24, 32))
    out = resize(img, size=(32, 64), interpolation=interpolation)
    assert out.shape == (C, 32, 64)
    assert out.dtype == img.dtype


def test_chainercv_invalid_backend(fake_chainer):
    fake_chainer.cv_resize_backend = 'PII'
    with pytest.raises(ValueError, match="resize: chainer.config.cv_resize_backend must be"):
        resize(numpy.zeros((3, 24, 32)), size=(32, 64))


@pytest.mark.skipif(CV2_INSTALLED, reason='cv2 is installed')
def test_chainercv_cv2_backend_without_cv2(fake_chainer):
    fake_chainer.cv_resize_backend = 'cv2'
    with pytest.raises(ValueError, match="cv2 is not installed"):
        resize(numpy.zeros((3, 24, 32)), size=(32, 64))


def test_config_without_the_option_is_ignored(fake_chainer):
    assert resize(numpy.zeros((1, 4, 4), numpy.float32), (2, 2)).shape == (1, 2, 2)


@pytest.mark.parametrize('interpolation', PIL_FILTERS)
def test_each_channel_as_pillow_does(interpolation):
    img = numpy.random.default_rng(0).uniform(0, 255, (5, 13, 17)).astype(numpy.float32)
    out = resize(img, (9, 24), interpolation=interpolation)
    assert out.dtype == numpy.float32
    expected = numpy.stack([_pillow_resize(ch, (9, 24), interpolation) for ch in img])
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize('name, constant', [
    ('nearest', Image.NEAREST), ('BILINEAR', Image.BILINEAR), ('linear', Image.BILINEAR),
    ('bicubic', Image.BICUBIC), ('cubic', Image.BICUBIC), ('lanczos', Image.LANCZOS),
    ('area', Image.BOX), ('box', Image.BOX), ('hamming', Image.HAMMING)])
def test_names_are_the_pillow_filters(name, constant):
    img = numpy.random.default_rng(1).uniform(0, 255, (2, 10, 14)).astype(numpy.float32)
    numpy.testing.assert_array_equal(resize(img, (7, 5), name), resize(img, (7, 5), constant))


def test_default_is_bilinear():
    img = numpy.random.default_rng(2).uniform(0, 255, (3, 10, 14)).astype(numpy.float32)
    numpy.testing.assert_array_equal(resize(img, (7, 5)), resize(img, (7, 5), 'bilinear'))


def test_nearest_enlarging_by_integers_repeats_pixels():
    img = numpy.arange(2 * 3 * 4, dtype=numpy.float32).reshape(2, 3, 4)
    out = resize(img, (6, 12), 'nearest')
    numpy.testing.assert_array_equal(out, img.repeat(2, axis=1).repeat(3, axis=2))


def test_area_halving_averages_blocks():
    img = numpy.random.default_rng(3).uniform(0, 255, (3, 8, 12)).astype(numpy.float32)
    out = resize(img, (4, 6), 'area')
    expected = img.reshape(3, 4, 2, 6, 2).mean(axis=(2, 4))
    numpy.testing.assert_allclose(out, expected, rtol=1e-5)


def test_bilinear_enlarging_interpolates_between_pixel_centres():
    # A horizontal ramp 0, 10, 20, 30 doubled in width: output centres at x = (j + 0.5) / 2
    # in input pixels, interpolated linearly between input centres (clamped at the ends).
    img = numpy.array([[[0, 10, 20, 30]]], dtype=numpy.float32)
    out = resize(img, (1, 8), 'bilinear')
    numpy.testing.assert_allclose(out[0, 0], [0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30],
                                  atol=1e-4)


@pytest.mark.parametrize('interpolation', PIL_FILTERS)
def test_constant_image_stays_constant(interpolation):
    img = numpy.full((2, 9, 11), 42.5, dtype=numpy.float32)
    numpy.testing.assert_allclose(resize(img, (20, 4), interpolation), 42.5, rtol=1e-5)


def test_same_size_is_a_copy():
    img = numpy.random.default_rng(4).uniform(size=(3, 5, 6)).astype(numpy.float32)
    out = resize(img, (5, 6))
    numpy.testing.assert_array_equal(out, img)
    assert not numpy.shares_memory(out, img)


def test_float64_keeps_its_dtype():
    img = numpy.random.default_rng(5).uniform(0, 255, (3, 10, 10))
    out = resize(img, (5, 20))
    assert out.dtype == numpy.float64
    numpy.testing.assert_allclose(out, resize(img.astype(numpy.float32), (5, 20)), rtol=1e-6)


def test_integers_are_rounded_and_clipped():
    # Bicubic overshoots at a sharp edge: below 0 and above 255 before clipping.
    img = numpy.zeros((1, 8, 8), dtype=numpy.uint8)
    img[:, :, 4:] = 255
    out = resize(img, (8, 20), 'bicubic')
    assert out.dtype == numpy.uint8
    expected = numpy.clip(numpy.rint(resize(img.astype(numpy.float32), (8, 20), 'bicubic')),
                          0, 255)
    numpy.testing.assert_array_equal(out, expected)


def test_boolean_masks_with_nearest():
    mask = numpy.zeros((2, 4, 4), dtype=bool)
    mask[0, 1:3, 1:3] = True
    out = resize(mask, (8, 8), 'nearest')
    assert out.dtype == bool
    numpy.testing.assert_array_equal(out, mask.repeat(2, axis=1).repeat(2, axis=2))


def test_non_contiguous_input():
    img = numpy.random.default_rng(6).uniform(size=(3, 10, 12)).astype(numpy.float32)
    numpy.testing.assert_array_equal(resize(img[:, ::-1, ::2], (4, 4)),
                                     resize(img[:, ::-1, ::2].copy(), (4, 4)))


@pytest.mark.parametrize('interpolation', ['cubical', 7, 9, 2.0, None, True])
def test_bad_interpolation(interpolation):
    with pytest.raises(ValueError, match=r'resize: interpolation must be one of PIL\.Image\.'):
        resize(numpy.zeros((1, 4, 4), numpy.float32), (2, 2), interpolation)


@pytest.mark.parametrize('size', [(0, 4), (4,), (4, 4, 4), (2.5, 4), 4, (-1, 3)])
def test_bad_size(size):
    with pytest.raises(ValueError, match='resize: size must be a pair of positive ints'):
        resize(numpy.zeros((1, 4, 4), numpy.float32), size)


def test_bad_image():
    with pytest.raises(ValueError, match=r'resize: img must be a 3-dimensional array '
                                         r'\(C, H, W\), but got shape \(4, 4\)'):
        resize(numpy.zeros((4, 4), numpy.float32), (2, 2))
    with pytest.raises(TypeError, match='resize: img must be a numpy.ndarray'):
        resize([[[0.0]]], (2, 2))
    with pytest.raises(TypeError, match='resize: img must be a real-valued or boolean array, '
                                        'but got dtype complex64'):
        resize(numpy.zeros((1, 4, 4), numpy.complex64), (2, 2))
    with pytest.raises(ValueError, match='resize: img must have a positive height and width'):
        resize(numpy.zeros((1, 0, 4), numpy.float32), (2, 2))
