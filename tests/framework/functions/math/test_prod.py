import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _others_product(x, axis):
    """For each element, the product of the other elements of its slice (float64, by loops)."""
    x = x.astype(numpy.float64)
    out = numpy.empty_like(x)
    for i in range(x.size):
        one = x.copy()
        one.flat[i] = 1
        out.flat[i] = numpy.broadcast_to(one.prod(axis=axis, keepdims=True), x.shape).flat[i]
    return out


class TestProd(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': [None, 1, -1, (2, 0)],
                       'keepdims': [False, True], 'contain_zero': [False, True],
                       'dtype': FLOAT_DTYPES})
              + product({'shape': [(3, 1, 0)], 'axis': [None, 2, (0, 1)],
                         'keepdims': [False], 'contain_zero': [False],
                         'dtype': [numpy.float32]})
              + product({'shape': [()], 'axis': [None], 'keepdims': [False],
                         'contain_zero': [False, True], 'dtype': FLOAT_DTYPES}))

    @property
    def check_forward_options(self):
        # backward_expected is computed in float64: float16 rounds the products of others.
        return {'atol': 1e-3, 'rtol': 1e-2} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        x = numpy.asarray(numpy.random.uniform(0.5, 1.5, self.shape)
                          * numpy.random.choice([-1, 1], self.shape))
        if self.contain_zero:
            x.flat[::5] = 0  # exact zeros, some slices with two of them
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.prod(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(x.prod(axis=self.axis, keepdims=self.keepdims)),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        gy = gy if self.keepdims else numpy.expand_dims(gy, axis)
        return (gy * _others_product(x, axis)).astype(self.dtype),


def test_gradient_with_zeros():
    x = Variable(numpy.array([[0, 2, 3], [0, 0, 5], [1, 2, 3]], numpy.float64))
    gx, = grad([F.prod(x, axis=1)], [x], [numpy.ones(3)], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, [[6, 0, 0], [0, 0, 0], [6, 3, 2]])
    # d/dx of sum(gx): second derivatives, products of all but two elements.
    ggx, = grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array, [[5, 3, 2], [5, 5, 0], [5, 4, 3]])


def test_triple_backward():
    x = Variable(numpy.array([2.0, 3.0, 0.0, 5.0]))
    g1, = grad([F.prod(x)], [x], enable_double_backprop=True)
    g2, = grad([F.sum(g1)], [x], enable_double_backprop=True)
    g3, = grad([F.sum(g2)], [x])
    # sum_i d/dx_j sum_{k != i} prod_{l != i, k} x_l: twice the sum over pairs not holding j.
    expected = [2 * sum(numpy.prod([x.array[m] for m in range(4) if m not in (j, a, b)])
                        for a in range(4) for b in range(a + 1, 4) if j not in (a, b))
                for j in range(4)]
    numpy.testing.assert_allclose(g3.array, expected)


@pytest.mark.parametrize('axis, error, message', [
    ([0], TypeError, 'prod: axis must be None, an int or a tuple of ints, but got list'),
    ((1, 'x'), TypeError, 'prod: axis must be an int, but got str'),
    ((0, 0), ValueError, 'prod: axis must not repeat an axis'),
    ((1, -2), ValueError, 'prod: axis must not repeat an axis'),
])
def test_rejects_bad_axis(axis, error, message):
    with pytest.raises(error, match=message):
        F.prod(numpy.zeros((3, 2, 4), numpy.float32), axis=axis)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='prod: x must be a floating-point array, '
                                        'but got dtype int64'):
        F.prod(numpy.zeros(3, numpy.int64))
