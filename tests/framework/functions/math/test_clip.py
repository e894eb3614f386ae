import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_BOUNDS = [(-0.75, 0.75), (None, 0.75), (-0.75, None), (numpy.float64(-0.5), numpy.int64(1))]


class TestClip(FunctionTestCase):
    params = product({'bounds': _BOUNDS, 'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        for bound in self.bounds:  # keep away from the kinks at the bounds
            if bound is not None:
                x[numpy.abs(x - bound) < 0.01] = 0.0
        return x,

    def forward(self, inputs, device):
        return F.clip(inputs[0], *self.bounds),

    def forward_expected(self, inputs):
        x, = inputs
        low, high = self.bounds
        y = x.copy()
        if low is not None:
            y[x < low] = low
        if high is not None:
            y[x > high] = high
        return y,


class TestClipAtBounds(FunctionTestCase):
    """The gradient at x_min and x_max themselves is 1, as in Chainer."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # the bounds are kinks: no numerical derivative
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.0, -0.75, -0.5, 0.0, 0.75, 1.0], self.dtype),

    def forward(self, inputs, device):
        return F.clip(inputs[0], -0.75, 0.75),

    def forward_expected(self, inputs):
        return numpy.array([-0.75, -0.75, -0.5, 0.0, 0.75, 0.75], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy * numpy.array([0, 1, 1, 1, 1, 0], self.dtype),


def test_rejects_empty_interval():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match='clip: x_min must be less than x_max, but got '
                                         'x_min=1.0 and x_max=-1.0'):
        F.clip(x, 1.0, -1.0)
    with pytest.raises(ValueError, match='clip: x_min must be less than x_max'):
        F.clip(x, 0.5, 0.5)


def test_rejects_no_bound():
    with pytest.raises(ValueError, match='clip: x_min and x_max must not both be None'):
        F.clip(numpy.zeros(3, numpy.float32), None, None)


def test_rejects_non_scalar_bound():
    with pytest.raises(TypeError, match='clip: x_max must be a real scalar or None, '
                                        'but got ndarray'):
        F.clip(numpy.zeros(3, numpy.float32), 0.0, numpy.ones(3))


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='clip: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.clip(numpy.zeros(3, numpy.int32), 0, 1)
