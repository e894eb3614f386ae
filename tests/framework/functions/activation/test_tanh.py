import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestTanh(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tanh(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return ((numpy.exp(x) - numpy.exp(-x)) / (numpy.exp(x) + numpy.exp(-x))
                ).astype(self.dtype),


def test_tanh_rejects_integer_input():
    with pytest.raises(TypeError, match='tanh: x must be a floating-point array'):
        F.tanh(numpy.zeros(3, numpy.int32))
