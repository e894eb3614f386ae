import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase

_SHAPES = [
    {'x_shape': (4, 3, 2), 'W_shape': (3,)},
    {'x_shape': (4, 3, 2), 'W_shape': (3, 2)},
    {'x_shape': (4, 3, 2), 'W_shape': ()},
    {'x_shape': (5,), 'W_shape': ()},
]


def _uniform_away_from_zero(shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape))
    while (abs(x) < margin).any():
        x = numpy.where(abs(x) < margin, numpy.random.uniform(-1, 1, shape), x)
    return x.astype(dtype)


def _extended(W, x):
    return W.reshape((1,) + W.shape + (1,) * (x.ndim - W.ndim - 1))


class TestPReLU(FunctionTestCase):
    params = [dict(p, dtype=d) for p in _SHAPES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        x = _uniform_away_from_zero(self.x_shape, self.dtype)
        W = numpy.random.uniform(-1, 1, self.W_shape).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return F.prelu(x, W),

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs)
        return numpy.where(x >= 0, x, _extended(W, x) * x).astype(self.dtype),


class TestPReLUAtKink(FunctionTestCase):
    """At 0 the gradient of x is that of the positive part, as in Chainer."""
    params = [{'dtype': d} for d in FLOAT_DTYPES]
    # The numerical derivative is undefined at the kink; backward_expected checks it exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.array([[-1.0, 0.0, 2.0], [0.0, -0.5, 0.0]], self.dtype)
        W = numpy.array([0.25, -0.5, 2.0], self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return F.prelu(x, W),

    def forward_expected(self, inputs):
        return numpy.array([[-0.25, 0.0, 2.0], [0.0, 0.25, 0.0]], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x, W = inputs
        gy, = grad_outputs
        gx = numpy.where(x >= 0, gy, gy * W)
        gW = numpy.where(x >= 0, 0, gy * x).sum(axis=0)
        return gx.astype(self.dtype), gW.astype(self.dtype)


def test_prelu_example():
    x = numpy.arange(-3, 3, dtype=numpy.float32).reshape((2, 3))
    y = F.prelu(x, numpy.array([0.01, 0.1, 1], numpy.float32))
    numpy.testing.assert_allclose(y.array, [[-0.03, -0.2, -1.0], [0.0, 1.0, 2.0]], rtol=1e-6)


def test_prelu_rejects_mismatched_W_shape():
    with pytest.raises(ValueError, match=r'prelu: W must have the shape of the axes of x after '
                                         r'the first .* but got W of shape \(4,\) for x of '
                                         r'shape \(2, 3\)'):
        F.prelu(numpy.zeros((2, 3), numpy.float32), numpy.zeros(4, numpy.float32))


def test_prelu_rejects_mismatched_dtype():
    with pytest.raises(TypeError, match=r'prelu: W must have the dtype of x'):
        F.prelu(numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.float16))


def test_prelu_rejects_integer_input():
    with pytest.raises(TypeError, match='prelu: x must be a floating-point array'):
        F.prelu(numpy.zeros((2, 3), numpy.int32), numpy.zeros(3, numpy.int32))



@pytest.mark.parametrize('W', [
    [0.5, -2.0, 1.0, 3.0, 0.25],  # slopes on both sides of 1
    [0.5, 0.0, 2.0, 1.5, -1.0],  # a zero slope (W * inf is nan)
])
def test_prelu_on_a_transposed_input_with_infinities(W):
    W = numpy.asarray(W, numpy.float32)
    x = numpy.random.uniform(-3, 3, (6, 5, 4)).astype(numpy.float32).transpose(2, 1, 0)
    x[0, :, 0], x[1, :, 0] = numpy.inf, -numpy.inf
    with numpy.errstate(invalid='ignore'):
        expected = numpy.where(x >= 0, x, W[:, None] * x)
    numpy.testing.assert_array_equal(F.prelu(x, W).array, expected)
