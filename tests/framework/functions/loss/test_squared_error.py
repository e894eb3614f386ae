import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform(shape, dtype):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


class TestSquaredError(FunctionTestCase):
    params = product({'shape': [(4, 3), (2, 3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform(self.shape, self.dtype), _uniform(self.shape, self.dtype)

    def forward(self, inputs, device):
        return F.squared_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray(numpy.square(x0 - x1), dtype=self.dtype),


def test_squared_error_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r'squared_error: x1 must have the shape of x0 \(3,\)'):
        F.squared_error(numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.float32))


def test_squared_error_rejects_mismatched_dtypes():
    with pytest.raises(TypeError, match='squared_error: x1 must have the dtype of x0'):
        F.squared_error(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64))


def test_squared_error_rejects_integers():
    with pytest.raises(TypeError, match='squared_error: x0 must be a floating-point array'):
        F.squared_error(numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32))


def test_squared_error_rejects_lists():
    with pytest.raises(TypeError, match='squared_error: x0 must be a Variable or an array'):
        F.squared_error([1.0], numpy.zeros(1, numpy.float32))
