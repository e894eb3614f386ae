import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform_away_from_zero(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape))
    while (abs(x) < margin).any():
        x = numpy.where(abs(x) < margin, numpy.random.uniform(-1, 1, shape), x)
    return x.astype(dtype)


class TestLeakyReLU(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'slope': [0.2, 0.0, -0.3],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(inputs[0], slope=self.slope),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.where(x > 0, x, self.slope * x).astype(self.dtype),


class TestLeakyReLUDefault(FunctionTestCase):
    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([[-1, 0], [2, -3], [-2, 1]], self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([[-0.2, 0], [2, -0.6], [-0.4, 1]], self.dtype),


class TestLeakyReLUAtKink(FunctionTestCase):
    """At 0 the gradient is ``slope``, as in Chainer."""
    params = product({'slope': [0.2, 0.0, -0.3], 'dtype': FLOAT_DTYPES})
    # The numerical derivative is undefined at the kink; backward_expected checks it exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.0, 0.0, 1.0], self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(inputs[0], self.slope),

    def forward_expected(self, inputs):
        return numpy.array([-self.slope, 0.0, 1.0], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy * numpy.array([self.slope, self.slope, 1.0], self.dtype),


def test_leaky_relu_rejects_non_number_slope():
    with pytest.raises(TypeError, match='leaky_relu: slope must be a float, but got NoneType'):
        F.leaky_relu(numpy.zeros(3, numpy.float32), None)
