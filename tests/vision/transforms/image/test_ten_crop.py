import numpy
import pytest

from vision.transforms import ten_crop


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_ten_crop.py.
def test_chainercv_ten_crop():
    img = numpy.random.uniform(size=(3, 48, 32))
    out = ten_crop(img, (48, 32))
    assert out.shape == (10, 3, 48, 32)
    for crop in out[:5]:
        numpy.testing.assert_array_equal(crop, img)
    for crop in out[5:]:
        numpy.testing.assert_array_equal(crop[:, :, ::-1], img)
    assert ten_crop(img, (24, 12)).shape == (10, 3, 24, 12)


def test_regions():
    img = numpy.arange(7 * 9, dtype=numpy.float32).reshape(1, 7, 9)
    out = ten_crop(img, (3, 4))
    expected = [img[:, 2:5, 2:6], img[:, :3, :4], img[:, 4:, :4], img[:, :3, 5:],
                img[:, 4:, 5:]]
    for crop, region in zip(out, expected + [e[:, :, ::-1] for e in expected]):
        numpy.testing.assert_array_equal(crop, region)


def test_too_large():
    with pytest.raises(ValueError, match='ten_crop: size must not exceed the image size'):
        ten_crop(numpy.zeros((1, 6, 6)), (2, 7))
