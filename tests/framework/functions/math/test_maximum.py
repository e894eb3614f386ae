import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_SHAPES = [((3, 2), (3, 2)), ((3, 2), (2,)), ((), (2, 1))]


def _sum_to(a, shape):
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1)
    return a.sum(axis=axes, keepdims=True).reshape(shape)


class TestMaximum(FunctionTestCase):
    params = product({'shapes': _SHAPES, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        while True:
            x1, x2 = (numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)
            if numpy.abs(x1 - x2).min() > 0.05:  # away from the kink at x1 == x2
                return x1, x2

    def forward(self, inputs, device):
        return F.maximum(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return numpy.where(x1 > x2, x1, x2),


class TestMaximumTies(FunctionTestCase):
    """On ties the gradient goes to x1, as in Chainer."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # ties are kinks: no numerical derivative
    skip_double_backward_test = True

    def generate_inputs(self):
        x1 = numpy.array([[0.5, 1.0], [0.25, -1.0], [-0.5, 0.25]], self.dtype)
        x2 = numpy.array([0.5, 0.25], self.dtype)
        return x1, x2

    def forward(self, inputs, device):
        return F.maximum(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return numpy.where(x1 > x2, x1, x2),

    def backward_expected(self, inputs, grad_outputs):
        x1, x2 = inputs
        gy, = grad_outputs
        first = x1 >= x2
        return numpy.where(first, gy, 0), _sum_to(numpy.where(first, 0, gy), x2.shape)


def test_tie_gradient_values():
    x1 = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    x2 = numpy.array([1.0, 3.0, 2.0], numpy.float32)
    v1, v2 = Variable(x1), Variable(x2)
    g1, g2 = grad([F.maximum(v1, v2)], [v1, v2], [numpy.ones(3, numpy.float32)])
    numpy.testing.assert_array_equal(g1.array, [1, 0, 1])
    numpy.testing.assert_array_equal(g2.array, [0, 1, 0])
    g2, = grad([F.maximum(x1, v2)], [v2], [numpy.ones(3, numpy.float32)])
    numpy.testing.assert_array_equal(g2.array, [0, 1, 0])


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='maximum: x1 must be a floating-point array, '
                                        'but got dtype int32'):
        F.maximum(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))


def test_rejects_mismatched_dtypes():
    with pytest.raises(TypeError, match=r'maximum: x2 must have the dtype of x1 \(float32\), '
                                        'but got dtype float64'):
        F.maximum(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))


def test_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match='maximum: the shapes of the inputs must broadcast'):
        F.maximum(numpy.ones((3, 2), numpy.float32), numpy.ones(3, numpy.float32))
