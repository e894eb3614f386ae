import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase


class TestGroupNormalization(FunctionTestCase):
    params = [{'shape': s, 'groups': g, 'dtype': d}
              for s, g in (((2, 6, 3), 3), ((3, 4, 2, 2), 2), ((2, 4), 2), ((1, 3, 5), 1))
              for d in FLOAT_DTYPES]

    def _setup(self, param):
        super()._setup(param)
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3} if loose else {}
        self.check_backward_options = self.check_double_backward_options = loose

    def generate_inputs(self):
        channels = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, channels).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, channels).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.group_normalization(x, self.groups, gamma, beta),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        n, c = x.shape[:2]
        grouped = x.reshape(n, self.groups, -1)
        mean = grouped.mean(axis=2, keepdims=True)
        var = ((grouped - mean) ** 2).mean(axis=2, keepdims=True)
        x_hat = ((grouped - mean) / numpy.sqrt(var + 1e-5)).reshape(x.shape)
        param_shape = (1, c) + (1,) * (x.ndim - 2)
        y = x_hat * gamma.reshape(param_shape) + beta.reshape(param_shape)
        return y.astype(self.dtype),


def test_group_normalization_eps():
    x = numpy.array([[[1.0, 3.0], [5.0, 7.0]]])
    y = F.group_normalization(x, 2, numpy.ones(2), numpy.zeros(2), eps=3.0)
    numpy.testing.assert_allclose(y.array, [[[-0.5, 0.5], [-0.5, 0.5]]])


_X = numpy.zeros((2, 6, 3), numpy.float32)
_P = numpy.zeros(6, numpy.float32)


@pytest.mark.parametrize('groups, gamma, x, error, message', [
    (4, _P, _X, ValueError, r'group_normalization: groups \(4\) must divide the number of '
                            r'channels of x \(6, x of shape \(2, 6, 3\)\)'),
    (2.0, _P, _X, TypeError, r'group_normalization: groups must be an int, but got float'),
    (0, _P, _X, ValueError, r'group_normalization: groups must be positive, but got 0'),
    (2, numpy.zeros(3, numpy.float32), _X, ValueError,
     r'group_normalization: gamma must have shape \(6,\) \(the channels, axis 1, of x of shape '
     r'\(2, 6, 3\)\), but got shape \(3,\)'),
    (2, _P, numpy.zeros(6, numpy.float32), ValueError,
     r'group_normalization: x must have at least 2 dimensions, but got shape \(6,\)'),
])
def test_group_normalization_rejects_bad_input(groups, gamma, x, error, message):
    with pytest.raises(error, match=message):
        F.group_normalization(x, groups, gamma, _P)
