import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestLog1p(FunctionTestCase):
    params = product({'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-0.5, 1.0, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log1p(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.log1p(inputs[0]),


def test_accurate_near_zero():
    y = F.log1p(numpy.array([1e-10], numpy.float64))
    numpy.testing.assert_allclose(y.array, [1e-10 - 5e-21], rtol=1e-15)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='log1p: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.log1p(numpy.ones(3, numpy.int32))


def test_rejects_non_array():
    with pytest.raises(TypeError, match='log1p: x must be a Variable or an array, but got list'):
        F.log1p([0.5])
