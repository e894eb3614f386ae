import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform(shape, dtype, low=-1.0, high=1.0):
    return numpy.random.uniform(low, high, shape).astype(dtype)


class TestAddBroadcast(FunctionTestCase):
    params = product({'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((), (4, 1))],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        a, b = self.shapes
        return _uniform(a, self.dtype), _uniform(b, self.dtype)

    def forward(self, inputs, device):
        return F.add(*inputs),

    def forward_expected(self, inputs):
        return inputs[0] + inputs[1],


class TestMul(FunctionTestCase):
    params = product({'shapes': [((3, 2), (3, 2)), ((3, 2), (1, 2))], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        a, b = self.shapes
        return _uniform(a, self.dtype), _uniform(b, self.dtype)

    def forward(self, inputs, device):
        x, y = inputs
        return x * y,

    def forward_expected(self, inputs):
        return inputs[0] * inputs[1],


def test_add_rejects_mismatched_dtypes():
    with pytest.raises(TypeError, match='add: rhs must have the dtype of lhs'):
        F.add(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64))


def test_scalar_keeps_dtype():
    x = Variable(numpy.ones(3, numpy.float16))
    assert (x * numpy.float64(2)).dtype == numpy.float16
