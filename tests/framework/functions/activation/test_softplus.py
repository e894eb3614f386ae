import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestSoftplus(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'beta': [1.0, 2.0, 0.5, -1.5],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softplus(inputs[0], beta=self.beta),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.log(1 + numpy.exp(self.beta * x)) / self.beta).astype(self.dtype),


def test_softplus_example():
    y = F.softplus(numpy.array([-2.0, 0.0, 2.0], numpy.float32))
    numpy.testing.assert_allclose(y.array, [0.126928, 0.6931472, 2.126928], rtol=1e-6)


def test_softplus_does_not_overflow():
    y = F.softplus(numpy.array([-1000.0, 1000.0], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0.0, 1000.0])


def test_softplus_rejects_zero_beta():
    with pytest.raises(ValueError, match='softplus: beta must be non-zero, but got 0.0'):
        F.softplus(numpy.zeros(3, numpy.float32), beta=0)


def test_softplus_rejects_integer_input():
    with pytest.raises(TypeError, match='softplus: x must be a floating-point array'):
        F.softplus(numpy.zeros(3, numpy.int32))
