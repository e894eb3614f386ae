import numpy
import pytest

from vision.utils.image import as_image


@pytest.mark.parametrize('dtype', [numpy.float64, numpy.float16, numpy.uint8, numpy.int32])
def test_casts_to_float32_as_chainercv(dtype):
    img = numpy.arange(2 * 5 * 6).reshape(2, 5, 6).astype(dtype)
    out = as_image('predict', 'img', img)
    assert out.dtype == numpy.float32 and out.shape == (2, 5, 6)
    numpy.testing.assert_array_equal(out, img.astype(numpy.float32))


def test_float32_is_not_copied():
    img = numpy.zeros((3, 5, 6), numpy.float32)
    assert as_image('predict', 'img', img, n_channel=3) is img


@pytest.mark.parametrize('n_channel', [3, None])
def test_channels_last_says_the_layout_and_the_fix(n_channel):
    img = numpy.zeros((40, 30, 3), numpy.uint8)
    with pytest.raises(ValueError, match=r'predict: img must have shape \(C, H, W\) \(channels '
                                         r'first\), but got shape \(40, 30, 3\), which looks '
                                         r'like \(H, W, C\): pass img.transpose\(2, 0, 1\)'):
        as_image('predict', 'img', img, n_channel=n_channel)


def test_wrong_number_of_channels():
    with pytest.raises(ValueError, match=r'predict: img must have shape \(C, H, W\) with C = 3, '
                                         r'but got shape \(1, 40, 30\)'):
        as_image('predict', 'img', numpy.zeros((1, 40, 30), numpy.float32), n_channel=3)


@pytest.mark.parametrize('shape', [(40, 30), (1, 3, 40, 30)])
def test_wrong_number_of_dimensions(shape):
    with pytest.raises(ValueError, match=rf'predict: imgs\[2\] must have shape \(C, H, W\), '
                                         rf'but got shape \({shape[0]}, '):
        as_image('predict', 'imgs[2]', numpy.zeros(shape, numpy.float32))


@pytest.mark.parametrize('dtype', [bool, numpy.complex64, object])
def test_wrong_dtype(dtype):
    with pytest.raises(TypeError, match=r'predict: img must be an integer or floating-point '
                                        r'array \(float32, values 0-255\), but got dtype'):
        as_image('predict', 'img', numpy.zeros((3, 4, 4), dtype))


def test_not_an_array():
    with pytest.raises(TypeError, match=r'predict: img must be a numpy.ndarray \(C, H, W\), '
                                        r'but got list'):
        as_image('predict', 'img', [[[0.0]]])


@pytest.mark.parametrize('shape', [(3, 0, 5), (1, 5, 0), (3, 0, 0)])
def test_images_without_pixels(shape):
    with pytest.raises(ValueError, match=rf'predict: imgs\[1\] must have at least one pixel, '
                                         rf'but got shape \({shape[0]}, {shape[1]}, '):
        as_image('predict', 'imgs[1]', numpy.zeros(shape, numpy.float32))


def test_small_channels_first_images_are_taken():
    for shape in [(3, 4, 3), (1, 2, 1), (4, 8, 4)]:
        assert as_image('predict', 'img', numpy.zeros(shape)).shape == shape
