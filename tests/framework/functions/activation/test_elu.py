import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform_away_from_zero(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape))
    while (abs(x) < margin).any():
        x = numpy.where(abs(x) < margin, numpy.random.uniform(-1, 1, shape), x)
    return x.astype(dtype)


def _elu(x, alpha):
    x = x.astype(numpy.float64)
    return numpy.where(x > 0, x, alpha * (numpy.exp(numpy.minimum(x, 0)) - 1))


class TestELU(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'alpha': [1.0, 0.5, -0.3],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.elu(inputs[0], alpha=self.alpha),

    def forward_expected(self, inputs):
        return _elu(inputs[0], self.alpha).astype(self.dtype),


class TestELUAtKink(FunctionTestCase):
    """At 0 the value is 0 and the gradient is ``alpha``, as in Chainer."""
    params = product({'alpha': [1.0, 0.5, -0.3], 'dtype': FLOAT_DTYPES})
    # The numerical derivative is undefined at the kink (for alpha != 1); backward_expected
    # checks it exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.0, 0.0, 2.0], self.dtype),

    def forward(self, inputs, device):
        return F.elu(inputs[0], self.alpha),

    def forward_expected(self, inputs):
        return _elu(inputs[0], self.alpha).astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return (gy * numpy.array([self.alpha * numpy.exp(-1.0), self.alpha, 1.0])
                ).astype(self.dtype),


class TestSELU(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946

    def generate_inputs(self):
        return _uniform_away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.selu(inputs[0]),

    def forward_expected(self, inputs):
        return (self.scale * _elu(inputs[0], self.alpha)).astype(self.dtype),


class TestSELUParameters(TestSELU):
    params = product({'shape': [(3, 2)], 'alpha': [0.5, 2.0], 'scale': [0.5, 3.0],
                      'dtype': FLOAT_DTYPES})

    def forward(self, inputs, device):
        return F.selu(inputs[0], alpha=self.alpha, scale=self.scale),


class TestSELUAtKink(TestELUAtKink):
    """At 0 the gradient is ``scale * alpha``."""
    params = product({'dtype': FLOAT_DTYPES})
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946

    def forward(self, inputs, device):
        return F.selu(inputs[0]),

    def forward_expected(self, inputs):
        return (self.scale * _elu(inputs[0], self.alpha)).astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        slope = self.scale * numpy.array([self.alpha * numpy.exp(-1.0), self.alpha, 1.0])
        return (gy * slope).astype(self.dtype),


def test_elu_example():
    y = F.elu(numpy.array([[-1, 0], [2, -3]], numpy.float32), alpha=1.0)
    numpy.testing.assert_allclose(y.array, [[-0.63212055, 0.0], [2.0, -0.95021296]], rtol=1e-6)


def test_selu_rejects_non_number_scale():
    with pytest.raises(TypeError, match='selu: scale must be a float, but got str'):
        F.selu(numpy.zeros(3, numpy.float32), scale='1')


def test_elu_rejects_integer_input():
    with pytest.raises(TypeError, match='elu: x must be a floating-point array'):
        F.elu(numpy.zeros(3, numpy.int32))
