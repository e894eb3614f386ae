import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform_away_from_zero(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape))
    while (abs(x) < margin).any():
        x = numpy.where(abs(x) < margin, numpy.random.uniform(-1, 1, shape), x)
    return x.astype(dtype)


class TestReLU(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.relu(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.where(x > 0, x, 0).astype(self.dtype),


class TestReLUAtKink(FunctionTestCase):
    """At 0 the value is 0 and the gradient is 0, as in Chainer."""
    params = product({'dtype': FLOAT_DTYPES})
    # The numerical derivative is undefined at the kink; backward_expected checks it exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.5, -0.0, 0.0, 0.0, 2.0], self.dtype),

    def forward(self, inputs, device):
        return F.relu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([0, 0, 0, 0, 2], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy * numpy.array([0, 0, 0, 0, 1], self.dtype),


def test_relu_rejects_integer_input():
    with pytest.raises(TypeError, match='relu: x must be a floating-point array, but got dtype '
                                       'int32'):
        F.relu(numpy.zeros(3, numpy.int32))


def test_relu_rejects_non_array():
    with pytest.raises(TypeError, match='relu: x must be a Variable or an array, but got list'):
        F.relu([1.0, 2.0])
