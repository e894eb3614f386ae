import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestCumprod(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': [None, 0, 2, -2],
                       'contain_zero': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'shape': [()], 'axis': [None], 'contain_zero': [False],
                         'dtype': FLOAT_DTYPES})
              + product({'shape': [(3, 0)], 'axis': [None, 0, 1], 'contain_zero': [False],
                         'dtype': [numpy.float32]}))

    @property
    def check_forward_options(self):
        # backward_expected is computed in float64, the gradient in float16 by sums of up to
        # 24 products that cancel.
        return {'atol': 5e-3, 'rtol': 1e-2} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        x = numpy.asarray(numpy.random.uniform(0.5, 1.5, self.shape)
                          * numpy.random.choice([-1, 1], self.shape))
        if self.contain_zero:
            x.flat[::7] = 0
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumprod(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.cumprod(inputs[0], axis=self.axis),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        axis = 0 if self.axis is None else self.axis
        x = numpy.moveaxis(x.reshape(-1) if self.axis is None else x, axis, 0)
        gy = numpy.moveaxis(gy, axis, 0).astype(numpy.float64)
        gx = numpy.zeros(x.shape)
        # dy_i/dx_m = prod_{k <= i, k != m} x_k for m <= i.
        for m in range(len(x)):
            for i in range(m, len(x)):
                others = numpy.prod(numpy.delete(x[:i + 1], m, axis=0), axis=0)
                gx[m] += gy[i] * others
        gx = numpy.moveaxis(gx, 0, axis).reshape(inputs[0].shape)
        return gx.astype(self.dtype),


def test_known_values_and_gradient_with_zero():
    x = Variable(numpy.array([2.0, 0.0, 3.0, 4.0]))
    y = F.cumprod(x)
    numpy.testing.assert_array_equal(y.array, [2, 0, 0, 0])
    gx, = grad([y], [x], [numpy.ones(4)])
    # d/dx_1 = x_0 (1 + x_2 + x_2 x_3); the others see the zero x_1.
    numpy.testing.assert_array_equal(gx.array, [1, 2 * (1 + 3 + 12), 0, 0])


def test_rejects_bad_arguments():
    with pytest.raises(TypeError, match='cumprod: axis must be an int, but got tuple'):
        F.cumprod(numpy.zeros((3, 2), numpy.float32), axis=(0,))
    with pytest.raises(ValueError, match=r'cumprod: axis must be in \[-2, 2\)'):
        F.cumprod(numpy.zeros((3, 2), numpy.float32), axis=-3)
    with pytest.raises(TypeError, match='cumprod: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.cumprod(numpy.zeros(3, numpy.int32))
