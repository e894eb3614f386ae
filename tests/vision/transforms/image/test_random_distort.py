import numpy
import pytest

from vision.transforms import random_distort
from vision.transforms.image.random_distort import _hsv_to_rgb, _rgb_to_hsv


def _img(seed=0):
    return numpy.random.RandomState(seed).randint(0, 256, (3, 16, 20)).astype(numpy.float32)


def test_hsv_of_known_colours():
    rgb = numpy.array([[255, 0, 0, 255, 128, 0], [0, 255, 0, 255, 128, 0],
                       [0, 0, 255, 0, 128, 0]], numpy.uint8)[:, None, :]
    hsv = _rgb_to_hsv(rgb)[:, 0].T
    numpy.testing.assert_array_equal(hsv, [[0, 255, 255], [60, 255, 255], [120, 255, 255],
                                           [30, 255, 255], [0, 0, 128], [0, 0, 0]])


def test_hsv_round_trip_is_close():
    img = _img().astype(numpy.uint8)
    back = _hsv_to_rgb(_rgb_to_hsv(img)).astype(int)
    assert numpy.abs(back - img).max() <= 5  # hue is kept in steps of 2 degrees


@pytest.mark.parametrize('seed', range(8))
def test_output_is_an_image_of_integer_values(seed):
    img = _img()
    out = random_distort(img, rng=numpy.random.default_rng(seed))
    assert out.dtype == numpy.float32 and out.shape == img.shape
    assert out.min() >= 0 and out.max() <= 255
    numpy.testing.assert_array_equal(out, numpy.round(out))


def test_it_distorts_and_the_rng_reproduces():
    img = _img()
    outs = [random_distort(img, rng=numpy.random.default_rng(s)) for s in range(6)]
    assert any(not numpy.array_equal(o, img) for o in outs)
    numpy.testing.assert_array_equal(outs[0], random_distort(img, rng=numpy.random.default_rng(0)))


def test_no_distortion_range_keeps_the_image():
    img = _img()
    out = random_distort(img, brightness_delta=0, contrast_low=1, contrast_high=1,
                         saturation_low=1, saturation_high=1, hue_delta=0,
                         rng=numpy.random.default_rng(0))
    assert numpy.abs(out - img).max() <= 5


def test_rgb_only():
    with pytest.raises(ValueError, match=r'RGB image \(3, H, W\)'):
        random_distort(numpy.zeros((1, 4, 4), numpy.float32))
