import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# (x shape, n_batch_axes, W shape)
_CASES = [
    ((4, 3), 1, (2, 3)),
    ((4, 2, 3), 1, (5, 6)),
    ((2, 3, 4), 2, (5, 4)),
    ((2, 1, 3, 2, 2), 3, (3, 4)),
    ((0, 3), 1, (2, 3)),
]


class TestLinear(FunctionTestCase):
    params = (product({'case': _CASES, 'nobias': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'case': _CASES[1:3], 'nobias': [False],
                         'dtypes': [(numpy.float16, numpy.float32),
                                    (numpy.float32, numpy.float64),
                                    (numpy.float64, numpy.float16)]}))

    @property
    def x_dtype(self):
        return getattr(self, 'dtypes', (self.dtype,))[0]

    @property
    def W_dtype(self):
        return getattr(self, 'dtypes', (self.dtype, self.dtype))[1]

    @property
    def check_forward_options(self):
        half = numpy.float16 in (self.x_dtype, self.W_dtype)
        return {'atol': 5e-3, 'rtol': 5e-3} if half else {}

    @property
    def check_backward_options(self):
        half = numpy.float16 in (self.x_dtype, self.W_dtype)
        return {'atol': 1e-2, 'rtol': 1e-2} if half else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x_shape, _, W_shape = self.case
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, W_shape).astype(self.W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, W_shape[0]).astype(self.x_dtype)

    def forward(self, inputs, device):
        _, n_batch_axes, _ = self.case
        return F.linear(*inputs, n_batch_axes=n_batch_axes),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        _, n_batch_axes, _ = self.case
        batch_shape = x.shape[:n_batch_axes]
        x2 = x.reshape(int(numpy.prod(batch_shape)), W.shape[1]).astype(numpy.float64)
        y = x2 @ W.astype(numpy.float64).T
        if len(inputs) == 3:
            y = y + inputs[2]
        return y.reshape(batch_shape + (W.shape[0],)).astype(x.dtype),


def test_known_values():
    x = numpy.array([[1, 2], [3, 4]], numpy.float32)
    W = numpy.array([[1, 0], [1, 1], [0, 2]], numpy.float32)
    b = numpy.array([0, 1, 2], numpy.float32)
    numpy.testing.assert_array_equal(F.linear(x, W, b).array, [[1, 4, 6], [3, 8, 10]])


def test_only_asked_gradients_and_no_bias_retained():
    x = Variable(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    W = Variable(numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32))
    b = Variable(numpy.zeros(2, numpy.float32))
    y = F.linear(x, W, b)
    assert len(y.creator_node._retained_input_data) == 2
    gW, = grad([F.sum(y)], [W])
    numpy.testing.assert_allclose(gW.array, numpy.broadcast_to(x.array.sum(0), (2, 4)),
                                  rtol=1e-6)


@pytest.mark.parametrize('x_shape, W_shape, b_shape, kwargs, error, message', [
    ((4, 3), (2, 4), None, {}, ValueError,
     r'linear: the input size of x of shape \(4, 3\) \(the product of its axes after the '
     r'first 1\) must be W.shape\[1\] = 4, but got 3'),
    ((4, 3), (6,), None, {}, ValueError, r'linear: W must be 2-dimensional, but got shape \(6,\)'),
    ((3,), (2, 3), None, {}, ValueError,
     r'linear: x must have more than n_batch_axes=1 dimensions, but got shape \(3,\)'),
    ((2, 3), (2, 3), None, {'n_batch_axes': 2}, ValueError,
     'linear: x must have more than n_batch_axes=2 dimensions'),
    ((4, 3), (2, 3), None, {'n_batch_axes': 0}, ValueError,
     'linear: n_batch_axes must be an int of at least 1, but got 0'),
    ((4, 3), (2, 3), (3,), {}, ValueError, r'linear: b must have shape \(2,\), but got shape'),
])
def test_rejects_bad_shapes(x_shape, W_shape, b_shape, kwargs, error, message):
    b = None if b_shape is None else numpy.zeros(b_shape, numpy.float32)
    with pytest.raises(error, match=message):
        F.linear(numpy.zeros(x_shape, numpy.float32), numpy.zeros(W_shape, numpy.float32), b,
                 **kwargs)


def test_rejects_bad_dtypes():
    x = numpy.zeros((4, 3), numpy.float32)
    W = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='linear: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.linear(x.astype(numpy.int32), W)
    with pytest.raises(TypeError, match='linear: W must be a floating-point array'):
        F.linear(x, W.astype(numpy.int64))
    with pytest.raises(TypeError, match=r'linear: b must have the dtype of x \(float32\), '
                                        'but got dtype float64'):
        F.linear(x, W, numpy.zeros(2, numpy.float64))
