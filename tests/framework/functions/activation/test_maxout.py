import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase

_CASES = [
    {'x_shape': (7, 12), 'pool_size': 2, 'axis': 1, 'y_shape': (7, 6)},
    {'x_shape': (7, 12), 'pool_size': 12, 'axis': 1, 'y_shape': (7, 1)},
    {'x_shape': (7, 3, 4), 'pool_size': 7, 'axis': 0, 'y_shape': (1, 3, 4)},
    {'x_shape': (7, 3, 4), 'pool_size': 4, 'axis': 2, 'y_shape': (7, 3, 1)},
    {'x_shape': (2, 2, 3, 4), 'pool_size': 2, 'axis': -1, 'y_shape': (2, 2, 3, 2)},
]


class TestMaxout(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _CASES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        # Distinct values one apart: no ties, so the numerical gradient is defined.
        size = int(numpy.prod(self.x_shape))
        x = numpy.random.permutation(size).reshape(self.x_shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        return F.maxout(inputs[0], self.pool_size, self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        grouped = (x.shape[:axis] + (x.shape[axis] // self.pool_size, self.pool_size)
                   + x.shape[axis + 1:])
        y = x.reshape(grouped).max(axis=axis + 1)
        assert y.shape == self.y_shape
        return y,


class TestMaxoutTies(FunctionTestCase):
    """On ties, every tied element receives the whole gradient, as in Chainer."""
    params = [{'dtype': d} for d in FLOAT_DTYPES]
    # The numerical derivative is undefined at ties; backward_expected checks them exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([[2.0, 2.0, 1.0, 5.0], [0.0, -1.0, 3.0, 3.0]], self.dtype),

    def forward(self, inputs, device):
        return F.maxout(inputs[0], 2),

    def forward_expected(self, inputs):
        return numpy.array([[2.0, 5.0], [0.0, 3.0]], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        mask = numpy.array([[1, 1, 0, 1], [1, 0, 1, 1]], self.dtype)
        return numpy.repeat(gy, 2, axis=1) * mask,


def test_maxout_rejects_indivisible_axis():
    with pytest.raises(ValueError, match=r'maxout: x.shape\[axis\] must be a multiple of '
                                         r'pool_size, but got x.shape\[1\] = 3 and pool_size = 5'):
        F.maxout(numpy.zeros((2, 3, 4), numpy.float32), 5)


def test_maxout_rejects_non_positive_pool_size():
    with pytest.raises(ValueError, match='maxout: pool_size must be positive, but got -1'):
        F.maxout(numpy.zeros((2, 3, 4), numpy.float32), -1)


def test_maxout_rejects_non_int_pool_size():
    with pytest.raises(TypeError, match='maxout: pool_size must be an int, but got float'):
        F.maxout(numpy.zeros((2, 4), numpy.float32), 2.0)


def test_maxout_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'maxout: axis must be in \[-2, 2\)'):
        F.maxout(numpy.zeros((2, 4), numpy.float32), 2, axis=2)
