import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _sum_to(a, shape):
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1)
    return a.sum(axis=axes, keepdims=True).reshape(shape)


class TestFmod(FunctionTestCase):
    params = product({'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ())],
                      'dtype': FLOAT_DTYPES})
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        x_shape, d_shape = self.shapes
        sign = numpy.random.choice([-1, 1], d_shape)
        divisor = numpy.asarray(sign * numpy.random.uniform(0.3, 1, d_shape), self.dtype)
        while True:
            x = numpy.random.uniform(-2, 2, x_shape).astype(self.dtype)
            q = x.astype(numpy.float64) / divisor
            # fmod jumps where x / divisor crosses a nonzero integer: keep away from those
            if numpy.all((numpy.abs(q - numpy.round(q)) > 0.05) | (numpy.abs(q) < 0.5)):
                return x, divisor

    def forward(self, inputs, device):
        return F.fmod(*inputs),

    def forward_expected(self, inputs):
        x, divisor = inputs
        return numpy.asarray(x - numpy.trunc(x / divisor) * divisor, x.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x, divisor = inputs
        gy, = grad_outputs
        return _sum_to(gy, x.shape), _sum_to(-numpy.trunc(x / divisor) * gy, divisor.shape)


def test_sign_follows_the_dividend():
    y = F.fmod(numpy.array([5.0, -5.0, 5.0, -5.0]), numpy.array([3.0, 3.0, -3.0, -3.0]))
    numpy.testing.assert_array_equal(y.array, [2.0, -2.0, 2.0, -2.0])


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='fmod: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.fmod(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))


def test_rejects_mismatched_dtypes():
    with pytest.raises(TypeError, match=r'fmod: divisor must have the dtype of x \(float32\)'):
        F.fmod(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))
