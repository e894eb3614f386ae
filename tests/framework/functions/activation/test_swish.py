import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase

_SHAPES = [
    {'x_shape': (4, 3, 2), 'beta_shape': (3,)},
    {'x_shape': (4, 3, 2), 'beta_shape': (3, 2)},
    {'x_shape': (4, 3, 2), 'beta_shape': ()},
    {'x_shape': (5,), 'beta_shape': ()},
]


class TestSwish(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _SHAPES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.beta_shape).astype(self.dtype)
        return x, beta

    def forward(self, inputs, device):
        x, beta = inputs
        return F.swish(x, beta),

    def forward_expected(self, inputs):
        x, beta = (a.astype(numpy.float64) for a in inputs)
        beta = beta.reshape((1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1))
        return (x / (1 + numpy.exp(-beta * x))).astype(self.dtype),


def test_swish_rejects_mismatched_beta_shape():
    with pytest.raises(ValueError, match=r'swish: beta must have the shape of the axes of x after '
                                         r'the first .* but got beta of shape \(2,\) for x of '
                                         r'shape \(4, 3\)'):
        F.swish(numpy.zeros((4, 3), numpy.float32), numpy.zeros(2, numpy.float32))


def test_swish_rejects_beta_with_as_many_axes_as_x():
    with pytest.raises(ValueError, match='swish: beta must have the shape'):
        F.swish(numpy.zeros((4, 3), numpy.float32), numpy.zeros((4, 3), numpy.float32))


def test_swish_rejects_mismatched_dtype():
    with pytest.raises(TypeError, match=r'swish: beta must have the dtype of x \(float32\), but '
                                        r'got dtype float64'):
        F.swish(numpy.zeros((4, 3), numpy.float32), numpy.zeros(3, numpy.float64))
