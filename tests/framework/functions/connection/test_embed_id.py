import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestEmbedID(FunctionTestCase):
    params = (product({'x_shape': [(3,), (2, 4), (2, 2, 3)], 'ignore_label': [None, -1, 2],
                       'x_dtype': [numpy.int32], 'dtype': FLOAT_DTYPES})
              + product({'x_shape': [(2, 4)], 'ignore_label': [None, 2],
                         'x_dtype': [numpy.int64, numpy.int8], 'dtype': [numpy.float32]}))

    @property
    def check_forward_options(self):
        return {'atol': 1e-3, 'rtol': 1e-3} if self.dtype == numpy.float16 else {}

    @property
    def check_backward_options(self):
        return {'atol': 1e-2, 'rtol': 1e-2} if self.dtype == numpy.float16 else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x = numpy.random.randint(-1, 5, self.x_shape).astype(self.x_dtype)
        x.flat[0] = 2  # repeated ids accumulate gradients
        x.flat[-1] = 2
        W = numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return F.embed_id(x, W, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        x, W = inputs
        y = W[x]
        if self.ignore_label is not None:
            y[x == self.ignore_label] = 0
        return y,

    def backward_expected(self, inputs, grad_outputs):
        x, W = inputs
        gy, = grad_outputs
        gW = numpy.zeros(W.shape, numpy.float64)
        for i, row in zip(x.ravel(), gy.reshape(-1, W.shape[1])):
            if i != self.ignore_label:
                gW[i] += row
        return gW.astype(W.dtype),


def test_known_values():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    x = numpy.array([[0, 2], [1, 1]], numpy.int32)
    numpy.testing.assert_array_equal(F.embed_id(x, W).array, [[[0, 1], [4, 5]], [[2, 3], [2, 3]]])
    y = F.embed_id(x, W, ignore_label=1)
    numpy.testing.assert_array_equal(y.array, [[[0, 1], [4, 5]], [[0, 0], [0, 0]]])


def test_gradient_accumulates_repeated_ids_and_skips_ignored():
    W = Variable(numpy.zeros((3, 2), numpy.float32))
    x = numpy.array([0, 0, 2, 1], numpy.int32)
    y = F.embed_id(x, W, ignore_label=1)
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [[2, 4], [0, 0], [4, 5]])


def test_bad_inputs():
    W = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(TypeError, match='embed_id: x must be a signed integer array'):
        F.embed_id(numpy.zeros(2, numpy.float32), W)
    with pytest.raises(TypeError, match='embed_id: x must be a signed integer array'):
        F.embed_id(numpy.zeros(2, numpy.uint8), W)
    with pytest.raises(ValueError, match='embed_id: x must have at least 1 dimensions'):
        F.embed_id(numpy.array(1, numpy.int32), W)
    with pytest.raises(TypeError, match='embed_id: W must be a floating-point array'):
        F.embed_id(numpy.zeros(2, numpy.int32), numpy.zeros((3, 2), numpy.int32))
    with pytest.raises(ValueError, match='embed_id: W must be 2-dimensional'):
        F.embed_id(numpy.zeros(2, numpy.int32), numpy.zeros(3, numpy.float32))
    with pytest.raises(TypeError, match='embed_id: ignore_label must be an int'):
        F.embed_id(numpy.zeros(2, numpy.int32), W, ignore_label=0.5)
