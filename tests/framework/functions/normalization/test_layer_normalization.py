import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase


class TestLayerNormalization(FunctionTestCase):
    params = [{'shape': s, 'eps': e, 'dtype': d}
              for s in ((3, 4), (2, 7), (1, 5)) for e in (1e-5, 0.5) for d in FLOAT_DTYPES]

    def _setup(self, param):
        super()._setup(param)
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3} if loose else {}
        self.check_backward_options = self.check_double_backward_options = loose

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.shape[1]).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.shape[1]).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.layer_normalization(x, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        mean = x.mean(axis=1, keepdims=True)
        std = numpy.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + self.eps)
        return (gamma * (x - mean) / std + beta).astype(self.dtype),


@pytest.mark.parametrize('x, gamma, error, message', [
    (numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros(3, numpy.float32), ValueError,
     r'layer_normalization: x must be 2-dimensional, but got shape \(2, 3, 4\)'),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros(4, numpy.float32), ValueError,
     r'layer_normalization: gamma must have shape \(3,\) \(the units, axis 1, of x of shape '
     r'\(2, 3\)\), but got shape \(4,\)'),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros(3), TypeError,
     r'layer_normalization: gamma must have the dtype of x \(float32\), but got dtype float64'),
])
def test_layer_normalization_rejects_bad_input(x, gamma, error, message):
    with pytest.raises(error, match=message):
        F.layer_normalization(x, gamma, numpy.zeros(x.shape[-1], numpy.float32))
