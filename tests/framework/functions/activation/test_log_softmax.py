import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_SHAPES_AXES = [
    {'shape': (2, 3), 'axis': 1},
    {'shape': (2, 3), 'axis': 0},
    {'shape': (2, 3, 4), 'axis': 2},
    {'shape': (2, 3, 4), 'axis': -2},
    {'shape': (5,), 'axis': 0},
    {'shape': (3, 1), 'axis': 1},
]


def _log_softmax(x, axis):
    x = x.astype(numpy.float64)
    return x - numpy.log(numpy.exp(x).sum(axis=axis, keepdims=True))


class TestLogSoftmax(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _SHAPES_AXES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_softmax(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return _log_softmax(inputs[0], self.axis).astype(self.dtype),


class TestLogSoftmaxDefaultAxis(FunctionTestCase):
    params = product({'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, (2, 3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_softmax(inputs[0]),

    def forward_expected(self, inputs):
        return _log_softmax(inputs[0], 1).astype(self.dtype),


def test_log_softmax_example():
    y = F.log_softmax(numpy.array([[0, 1, 2], [0, 2, 4]], numpy.float32))
    numpy.testing.assert_allclose(y.array, [[-2.407606, -1.4076059, -0.4076059],
                                            [-4.1429315, -2.1429315, -0.14293146]], rtol=1e-6)


def test_log_softmax_does_not_underflow():
    y = F.log_softmax(numpy.array([[1000.0, 0.0]], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[0.0, -1000.0]])


def test_log_softmax_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'log_softmax: axis must be in \[-1, 1\)'):
        F.log_softmax(numpy.zeros(3, numpy.float32), axis=1)


def test_log_softmax_rejects_integer_input():
    with pytest.raises(TypeError, match='log_softmax: x must be a floating-point array'):
        F.log_softmax(numpy.zeros((2, 3), numpy.int32))
