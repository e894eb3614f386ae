import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestSigmoid(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-3, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (1 / (1 + numpy.exp(-x))).astype(self.dtype),


def test_sigmoid_saturates_without_overflow():
    y = F.sigmoid(numpy.array([-1000.0, 0.0, 1000.0], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0.0, 0.5, 1.0])


def test_sigmoid_rejects_integer_input():
    with pytest.raises(TypeError, match='sigmoid: x must be a floating-point array'):
        F.sigmoid(numpy.zeros(3, numpy.int32))
