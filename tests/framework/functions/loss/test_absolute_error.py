import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _inputs_away_from_kink(shape, dtype):
    """Two arrays whose differences are at least 0.1 away from the kink at 0."""
    x0 = numpy.random.uniform(-1, 1, shape)
    diff = numpy.random.uniform(0.1, 1, shape) * numpy.random.choice([-1, 1], shape)
    return x0.astype(dtype), numpy.asarray(x0 - diff).astype(dtype)


class TestAbsoluteError(FunctionTestCase):
    params = product({'shape': [(4, 3), (2, 3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _inputs_away_from_kink(self.shape, self.dtype)

    def forward(self, inputs, device):
        return F.absolute_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray(numpy.abs(x0 - x1), dtype=self.dtype),


class TestAbsoluteErrorAtKink(FunctionTestCase):
    """Where ``x0 == x1`` the value and both gradients are 0."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x0 = numpy.array([0.5, -0.25, 1.0], self.dtype)
        return x0, numpy.array([0.5, 0.25, 1.0], self.dtype)

    def forward(self, inputs, device):
        return F.absolute_error(*inputs),

    def forward_expected(self, inputs):
        return numpy.array([0, 0.5, 0], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        sign = numpy.array([0, -1, 0], self.dtype)
        return gy * sign, -gy * sign


def test_absolute_error_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r'absolute_error: x1 must have the shape of x0'):
        F.absolute_error(numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.float32))
