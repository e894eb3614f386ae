import numpy
import pytest
from PIL import Image

from vision.transforms import resize, resize_contain


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_resize_contain.py.
@pytest.mark.parametrize('size, scaled_size, y_offset, x_offset', [
    ((48, 96), (32, 64), 8, 16),
    ((16, 68), (16, 32), 0, 18),
    ((24, 16), (8, 16), 8, 0),
    ((47, 97), (32, 64), 7, 16),
])
@pytest.mark.parametrize('fill', [128, (104, 117, 123),
                                  numpy.random.uniform(255, size=(3, 1, 1))])
@pytest.mark.parametrize('interpolation', [Image.NEAREST, Image.BILINEAR, Image.BICUBIC,
                                           Image.LANCZOS])
def test_chainercv_resize_contain(size, scaled_size, y_offset, x_offset, fill,
                                  interpolation):
    H, W = 32, 64
    img = numpy.random.uniform(255, size=(3, H, W))
    out, param = resize_contain(img, size, fill=fill, interpolation=interpolation,
                                return_param=True)
    assert param == {'scaled_size': scaled_size, 'y_offset': y_offset, 'x_offset': x_offset}
    assert out.shape == (3,) + size
    region = out[:, y_offset:y_offset + scaled_size[0], x_offset:x_offset + scaled_size[1]]
    if scaled_size == (H, W):
        numpy.testing.assert_array_equal(region, img)
    else:
        numpy.testing.assert_array_equal(region, resize(img, scaled_size, interpolation))
    if y_offset > 0 or x_offset > 0:
        expected = (fill,) * 3 if isinstance(fill, int) else fill
        numpy.testing.assert_array_equal(out[:, 0, 0], numpy.array(expected).flatten())


def test_padding_everywhere_else():
    img = numpy.ones((2, 3, 4), numpy.float32)
    out = resize_contain(img, (6, 9), fill=(-1, -2))
    assert out.dtype == numpy.float32
    inside = numpy.zeros((6, 9), bool)
    inside[1:4, 2:6] = True
    numpy.testing.assert_array_equal(out[:, inside], 1)
    numpy.testing.assert_array_equal(out[0, ~inside], -1)
    numpy.testing.assert_array_equal(out[1, ~inside], -2)


def test_bad_fill():
    with pytest.raises(ValueError, match='resize_contain: fill must be a number or 3 numbers'):
        resize_contain(numpy.zeros((3, 4, 4)), (8, 8), fill=(1, 2, 3, 4))


def test_a_thin_image_keeps_at_least_one_pixel_across():
    img = numpy.arange(2000, dtype=numpy.float32).reshape(1, 1, 2000)
    out, param = resize_contain(img, (416, 416), fill=-1, return_param=True)
    assert param == {'scaled_size': (1, 416), 'y_offset': 207, 'x_offset': 0}
    numpy.testing.assert_array_equal(out[0, 207], resize(img, (1, 416))[0, 0])
    assert (out[0, :207] == -1).all() and (out[0, 208:] == -1).all()
