import numpy
import pytest

from vision.transforms import resize, scale


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_scale.py.
@pytest.mark.parametrize('in_shape, size, fit_short, out_shape', [
    ((3, 24, 16), 8, True, (3, 12, 8)),
    ((3, 16, 24), 8, True, (3, 8, 12)),
    ((3, 16, 24), 24, True, (3, 24, 36)),
    ((3, 24, 16), 36, False, (3, 36, 24)),
    ((3, 16, 24), 36, False, (3, 24, 36)),
    ((3, 24, 12), 12, False, (3, 12, 6)),
    ((1, 16, 24), 8, True, (1, 8, 12)),
    ((1, 16, 24), 36, False, (1, 24, 36)),
])
@pytest.mark.parametrize('interpolation', ['nearest', 'bilinear', 'bicubic', 'lanczos'])
def test_chainercv_scale(in_shape, size, fit_short, out_shape, interpolation):
    img = numpy.random.uniform(size=in_shape)
    out = scale(img, size, fit_short=fit_short, interpolation=interpolation)
    assert out.shape == out_shape
    numpy.testing.assert_array_equal(out, resize(img, out_shape[1:], interpolation))


@pytest.mark.parametrize('in_shape, size, fit_short', [
    ((3, 24, 16), 16, True), ((3, 16, 24), 16, True), ((3, 24, 16), 24, False),
    ((3, 16, 24), 24, False), ((1, 16, 24), 24, False)])
def test_chainercv_no_resize(in_shape, size, fit_short):
    img = numpy.random.uniform(size=in_shape)
    assert scale(img, size, fit_short=fit_short) is img


def test_lengths_are_truncated():
    assert scale(numpy.zeros((1, 10, 15)), 7).shape == (1, 7, 10)
    assert scale(numpy.zeros((1, 15, 10)), 7, fit_short=False).shape == (1, 7, 4)


@pytest.mark.parametrize('size', [0, 2.5, True, (3, 3)])
def test_bad_size(size):
    with pytest.raises(ValueError, match='scale: size must be a positive int'):
        scale(numpy.zeros((1, 4, 4)), size)
