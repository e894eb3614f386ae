import numpy
import pytest

import framework.functions as F
from framework import Variable, backend, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


def _reference(x, indexes, ksize, stride, pad, outsize):
    """Upsampling by a loop over the inputs: each value added at its index in its window."""
    kh, kw = ksize
    padded = numpy.zeros(x.shape[:2] + (outsize[0] + 2 * pad[0] + stride[0] + kh,
                                        outsize[1] + 2 * pad[1] + stride[1] + kw), x.dtype)
    for n, c, i, j in numpy.ndindex(*x.shape):
        ky, kx = divmod(int(indexes[n, c, i, j]), kw)
        padded[n, c, i * stride[0] + ky, j * stride[1] + kx] += x[n, c, i, j]
    return padded[:, :, pad[0]:pad[0] + outsize[0], pad[1]:pad[1] + outsize[1]]


# (shape of x, ksize, stride, pad, outsize, cover_all): non-overlapping windows, overlapping
# windows with padding (the indices may point into the padding, which is cut off), an explicit
# outsize, rectangular windows, one global window.
_CONFIGS = [
    ((2, 3, 3, 2), (2, 2), (2, 2), (0, 0), (6, 4), False),
    ((2, 3, 3, 2), (2, 2), (2, 2), (0, 0), (5, 3), True),
    ((2, 2, 3, 4), (3, 3), (2, 2), (1, 1), (5, 7), True),
    ((1, 2, 3, 2), (2, 3), (1, 2), (1, 0), (2, 6), False),
    ((2, 3, 1, 1), (5, 4), (5, 4), (0, 0), (5, 4), False),
]


class TestUpsampling2D(FunctionTestCase):
    params = product({'config': _CONFIGS, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        shape, ksize = self.config[:2]
        x = numpy.random.uniform(-1, 1, shape).astype(self.dtype)
        return x, numpy.random.randint(0, ksize[0] * ksize[1], shape).astype(numpy.int32)

    def forward(self, inputs, device):
        x, indexes = inputs
        _, ksize, stride, pad, outsize, cover_all = self.config
        return F.upsampling_2d(x, indexes, ksize, stride, pad, outsize, cover_all),

    def forward_expected(self, inputs):
        return _reference(*inputs, *self.config[1:5]),


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('cover_all', [True, False])
def test_round_trip_with_max_pooling(device, cover_all):
    """Upsampling the pooled values puts them back where they came from; it is max pooling's
    gradient."""
    numpy.random.seed(0)
    x = numpy.random.randint(0, 4, (2, 3, 7, 6)).astype(numpy.float32)  # with ties
    xv = Variable(device.send(x))
    y, indexes = F.max_pooling_2d(xv, 3, 2, 1, cover_all, return_indices=True)
    up = F.upsampling_2d(y, indexes, 3, 2, 1, outsize=(7, 6), cover_all=cover_all)
    expected = _reference(backend.to_cpu(y.array), backend.to_cpu(indexes), (3, 3), (2, 2),
                          (1, 1), (7, 6))
    numpy.testing.assert_array_equal(backend.to_cpu(up.array), expected)
    gx, = grad([y], [xv], [y.array])
    numpy.testing.assert_array_equal(backend.to_cpu(gx.array), expected)


def test_default_outsize_is_chainers():
    x = numpy.ones((1, 1, 2, 3), numpy.float32)
    indexes = numpy.zeros((1, 1, 2, 3), numpy.intp)
    assert F.upsampling_2d(x, indexes, 2).shape == (1, 1, 3, 5)
    assert F.upsampling_2d(x, indexes, 2, cover_all=False).shape == (1, 1, 4, 6)


def test_rejects_bad_indexes():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=r'upsampling_2d: indexes must have the shape of x '
                                         r'\(1, 1, 2, 2\), but got shape \(1, 1, 2, 3\)'):
        F.upsampling_2d(x, numpy.zeros((1, 1, 2, 3), numpy.int32), 2)
    with pytest.raises(TypeError, match='upsampling_2d: indexes must be a signed integer or '
                                        'unsigned integer array, but got dtype float32'):
        F.upsampling_2d(x, x, 2)


def test_rejects_inconsistent_outsize():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=r'upsampling_2d: outsize \(7, 4\) pooled with ksize '
                                         r'\(2, 2\), stride \(2, 2\), pad \(0, 0\), '
                                         r'cover_all=True gives spatial size \(4, 2\), but x '
                                         r'has spatial size \(2, 2\)'):
        F.upsampling_2d(x, numpy.zeros((1, 1, 2, 2), numpy.int32), 2, outsize=(7, 4))
