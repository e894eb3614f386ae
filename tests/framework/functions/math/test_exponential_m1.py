import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestExpm1(FunctionTestCase):
    params = product({'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.expm1(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.expm1(inputs[0]),


def test_accurate_near_zero():
    y = F.expm1(numpy.array([1e-10], numpy.float64))
    numpy.testing.assert_allclose(y.array, [1e-10 + 5e-21], rtol=1e-15)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='expm1: x must be a floating-point array, '
                                        'but got dtype int64'):
        F.expm1(numpy.ones(3, numpy.int64))
