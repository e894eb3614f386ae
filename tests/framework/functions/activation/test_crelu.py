import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase

_CASES = [
    {'shape': (5, 4), 'y_shape': (10, 4), 'axis': 0},
    {'shape': (5, 4), 'y_shape': (5, 8), 'axis': 1},
    {'shape': (5, 4), 'y_shape': (10, 4), 'axis': -2},
    {'shape': (5, 4, 3, 2), 'y_shape': (5, 4, 6, 2), 'axis': 2},
    {'shape': (5, 4, 3, 2), 'y_shape': (5, 4, 3, 4), 'axis': -1},
    {'shape': (3,), 'y_shape': (6,), 'axis': 0},
]


def _uniform_away_from_zero(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape))
    while (abs(x) < margin).any():
        x = numpy.where(abs(x) < margin, numpy.random.uniform(-1, 1, shape), x)
    return x.astype(dtype)


class TestCReLU(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _CASES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        return _uniform_away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.crelu(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.concatenate((numpy.where(x > 0, x, 0), numpy.where(x < 0, -x, 0)),
                              axis=self.axis).astype(self.dtype)
        assert y.shape == self.y_shape
        return y,


class TestCReLUAtKink(FunctionTestCase):
    """At 0 both halves are 0 and the gradient is 0, as in Chainer."""
    params = [{'dtype': d} for d in FLOAT_DTYPES]
    # The numerical derivative is undefined at the kink; backward_expected checks it exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([[-1.0, 0.0, 2.0]], self.dtype),

    def forward(self, inputs, device):
        return F.crelu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([[0.0, 0.0, 2.0, 1.0, 0.0, 0.0]], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        former, latter = gy[:, :3], gy[:, 3:]
        return former * numpy.array([0, 0, 1], self.dtype) - latter * numpy.array(
            [1, 0, 0], self.dtype),


def test_crelu_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'crelu: axis must be in \[-2, 2\) for an input of 2 '
                                         r'dimensions, but got 2'):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=2)


def test_crelu_rejects_non_int_axis():
    with pytest.raises(TypeError, match='crelu: axis must be an int, but got float'):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=1.0)


def test_crelu_rejects_integer_input():
    with pytest.raises(TypeError, match='crelu: x must be a floating-point array'):
        F.crelu(numpy.zeros((2, 3), numpy.int32))
