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


def _softmax(x, axis):
    x = x.astype(numpy.float64)
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


class TestSoftmax(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _SHAPES_AXES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softmax(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return _softmax(inputs[0], self.axis).astype(self.dtype),


class TestSoftmaxDefaultAxis(FunctionTestCase):
    params = product({'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, (2, 3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softmax(inputs[0]),

    def forward_expected(self, inputs):
        return _softmax(inputs[0], 1).astype(self.dtype),


def test_softmax_example():
    y = F.softmax(numpy.array([[0, 1, 2], [0, 2, 4]], numpy.float32), axis=1)
    numpy.testing.assert_allclose(y.array, [[0.09003057, 0.24472848, 0.66524094],
                                            [0.01587624, 0.11731043, 0.86681336]], rtol=1e-6)


def test_softmax_does_not_overflow():
    y = F.softmax(numpy.array([[1000.0, 0.0]], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[1.0, 0.0]])


def test_softmax_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'softmax: axis must be in \[-2, 2\) for an input of 2 '
                                         r'dimensions, but got 2'):
        F.softmax(numpy.zeros((2, 3), numpy.float32), axis=2)


def test_softmax_rejects_non_int_axis():
    with pytest.raises(TypeError, match='softmax: axis must be an int, but got float'):
        F.softmax(numpy.zeros((2, 3), numpy.float32), axis=1.0)


def test_softmax_rejects_integer_input():
    with pytest.raises(TypeError, match='softmax: x must be a floating-point array'):
        F.softmax(numpy.zeros((2, 3), numpy.int32))
