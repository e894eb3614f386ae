import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase


def _reference(x, n, k, alpha, beta):
    """The formula channel by channel, in float64."""
    x = x.astype(numpy.float64)
    y = numpy.empty_like(x)
    channels = x.shape[1]
    for c in range(channels):
        window = x[:, max(0, c - n // 2):min(channels, c + n // 2 + 1)]
        y[:, c] = x[:, c] / (k + alpha * (window ** 2).sum(axis=1)) ** beta
    return y


class TestLocalResponseNormalization(FunctionTestCase):
    params = ([{'shape': (2, 7, 3), 'n': n, 'dtype': d} for n in (5, 4, 1) for d in FLOAT_DTYPES]
              + [{'shape': (2, 3, 2, 2), 'n': 5, 'dtype': d} for d in FLOAT_DTYPES]
              + [{'shape': (3, 2), 'n': 3, 'dtype': d} for d in FLOAT_DTYPES])
    k, alpha, beta = 1.5, 0.3, 0.75

    def _setup(self, param):
        super()._setup(param)
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_backward_options = self.check_double_backward_options = loose

    def generate_inputs(self):
        return numpy.random.uniform(-1.5, 1.5, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.local_response_normalization(x, self.n, self.k, self.alpha, self.beta),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference(x, self.n, self.k, self.alpha, self.beta).astype(self.dtype),


def test_local_response_normalization_defaults():
    x = numpy.random.uniform(-10, 10, (2, 8, 3)).astype(numpy.float32)
    y = F.local_response_normalization(x)
    numpy.testing.assert_allclose(y.array, _reference(x, 5, 2, 1e-4, 0.75), rtol=1e-5)


@pytest.mark.parametrize('x, kwargs, error, message', [
    (numpy.zeros(3, numpy.float32), {}, ValueError,
     r'local_response_normalization: x must have at least 2 dimensions, but got shape \(3,\)'),
    (numpy.zeros((2, 3), numpy.float32), {'n': 0}, ValueError,
     r'local_response_normalization: n must be positive, but got 0'),
    (numpy.zeros((2, 3), numpy.float32), {'beta': '0.75'}, TypeError,
     r'local_response_normalization: beta must be a real number, but got str'),
])
def test_local_response_normalization_rejects_bad_input(x, kwargs, error, message):
    with pytest.raises(error, match=message):
        F.local_response_normalization(x, **kwargs)
