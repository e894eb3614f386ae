import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform_away_from_corners(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-3.5, 3.5, shape))

    def near():
        return abs(abs(x) - 2.5) < margin

    while near().any():
        x = numpy.where(near(), numpy.random.uniform(-3.5, 3.5, shape), x)
    return x.astype(dtype)


def _hard_sigmoid(x):
    return numpy.minimum(numpy.maximum(0.2 * x.astype(numpy.float64) + 0.5, 0), 1)


class TestHardSigmoid(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from_corners(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.hard_sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        return _hard_sigmoid(inputs[0]).astype(self.dtype),


class TestHardSigmoidAtCorners(FunctionTestCase):
    """At the corners -2.5 and 2.5 the gradient is 0, as in Chainer."""
    params = product({'dtype': FLOAT_DTYPES})
    # The numerical derivative is undefined at the corners; backward_expected checks them.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-3.0, -2.5, -1.0, 0.0, 1.0, 2.5, 3.0], self.dtype),

    def forward(self, inputs, device):
        return F.hard_sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([0.0, 0.0, 0.3, 0.5, 0.7, 1.0, 1.0], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return (gy * numpy.array([0, 0, 0.2, 0.2, 0.2, 0, 0])).astype(self.dtype),


def test_hard_sigmoid_rejects_integer_input():
    with pytest.raises(TypeError, match='hard_sigmoid: x must be a floating-point array'):
        F.hard_sigmoid(numpy.zeros(3, numpy.int32))
