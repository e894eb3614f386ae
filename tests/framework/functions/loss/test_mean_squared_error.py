import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform(shape, dtype):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


class TestMeanSquaredError(FunctionTestCase):
    params = product({'shape': [(4, 3), (2, 3, 4), (5,), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform(self.shape, self.dtype), _uniform(self.shape, self.dtype)

    def forward(self, inputs, device):
        return F.mean_squared_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = (x.astype(numpy.float64) for x in inputs)
        return numpy.asarray(numpy.mean(numpy.square(x0 - x1)), dtype=self.dtype),


def test_mean_squared_error_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match='mean_squared_error: x1 must have the shape of x0'):
        F.mean_squared_error(numpy.zeros((2, 3), numpy.float32),
                             numpy.zeros((3, 2), numpy.float32))


def test_mean_squared_error_rejects_integers():
    with pytest.raises(TypeError, match='mean_squared_error: x0 must be a floating-point'):
        F.mean_squared_error(numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32))
