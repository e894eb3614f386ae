import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase


def _position(o, in_size, out_size, mode, align_corners):
    """Chainer's sampling position of output index ``o`` along one axis."""
    if mode == 'nearest':
        return min(numpy.floor(o * (in_size / out_size)), in_size - 1)
    if align_corners:
        return 0.0 if out_size == 1 else o * (in_size - 1) / (out_size - 1)
    return max((o + 0.5) * (in_size / out_size) - 0.5, 0.0)


def _reference(x, out_shape, mode, align_corners):
    """Interpolates pixel by pixel from the four neighbours of each sampling position."""
    x = x.astype(numpy.float64)
    _, _, h, w = x.shape
    y = numpy.empty(x.shape[:2] + tuple(out_shape))
    for i in range(out_shape[0]):
        v = _position(i, h, out_shape[0], mode, align_corners)
        v0, dv = int(v), v - int(v)
        v1 = min(v0 + 1, h - 1)
        for j in range(out_shape[1]):
            u = _position(j, w, out_shape[1], mode, align_corners)
            u0, du = int(u), u - int(u)
            u1 = min(u0 + 1, w - 1)
            y[:, :, i, j] = ((1 - dv) * (1 - du) * x[:, :, v0, u0] + (1 - dv) * du * x[:, :, v0, u1]
                             + dv * (1 - du) * x[:, :, v1, u0] + dv * du * x[:, :, v1, u1])
    return y


_SHAPES = [((2, 3, 4, 5), (7, 3)), ((1, 2, 6, 4), (3, 9)), ((1, 1, 3, 3), (3, 3)),
           ((1, 1, 1, 1), (3, 2)), ((2, 1, 5, 2), (1, 1))]


class TestResizeImages(FunctionTestCase):
    params = [{'shapes': s, 'mode': m, 'align_corners': a, 'dtype': d}
              for s in _SHAPES for m, a in (('bilinear', True), ('bilinear', False),
                                            ('nearest', True))
              for d in FLOAT_DTYPES]

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.resize_images(x, self.shapes[1], mode=self.mode,
                               align_corners=self.align_corners),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference(x, self.shapes[1], self.mode, self.align_corners).astype(self.dtype),


def test_resize_images_example():
    x = numpy.array([[[[0.0, 1.0], [2.0, 3.0]]]], numpy.float32)
    y = F.resize_images(x, (3, 3))
    numpy.testing.assert_allclose(y.array[0, 0], [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]])
    y = F.resize_images(x, (4, 4), mode='nearest')
    numpy.testing.assert_array_equal(y.array[0, 0], x[0, 0].repeat(2, 0).repeat(2, 1))


def test_resize_images_gradient_is_the_transposed_interpolation():
    xv = Variable(numpy.ones((1, 1, 2, 2), numpy.float32))
    y = F.resize_images(xv, (3, 3))
    F.sum(y).backward()
    # Each corner pixel gets 1 + 2 * 0.5 + 0.25 from the 3x3 grid.
    numpy.testing.assert_allclose(xv.grad[0, 0], numpy.full((2, 2), 2.25))


@pytest.mark.parametrize('x, args, kwargs, error, message', [
    (numpy.zeros((1, 2, 3), numpy.float32), ((2, 2),), {}, ValueError,
     r'resize_images: x must be 4-dimensional, but got shape \(1, 2, 3\)'),
    (numpy.zeros((1, 1, 2, 2), numpy.float32), ((2, 2),), {'mode': 'bicubic'}, ValueError,
     r"resize_images: mode must be 'bilinear' or 'nearest', but got 'bicubic'"),
    (numpy.zeros((1, 1, 2, 2), numpy.float32), ((2,),), {}, TypeError,
     r'resize_images: output_shape must be a pair \(H_O, W_O\) of ints, but got \(2,\)'),
    (numpy.zeros((1, 1, 2, 2), numpy.float32), ((0, 2),), {}, ValueError,
     r'resize_images: output_shape must be positive, but got 0'),
    (numpy.zeros((1, 1, 2, 2), numpy.int32), ((2, 2),), {}, TypeError,
     r'resize_images: x must be a floating-point array, but got dtype int32'),
    (numpy.zeros((1, 1, 2, 2), numpy.float32), ((2, 2), 'nearest'), {}, TypeError,
     r'takes 2 positional arguments'),  # mode and align_corners are keyword-only, as in Chainer
])
def test_resize_images_rejects_bad_input(x, args, kwargs, error, message):
    with pytest.raises(error, match=message):
        F.resize_images(x, *args, **kwargs)
