import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product

_REDUCTIONS = ['max', 'min']


def _distinct(shape, dtype):
    """Values in [-1, 1] at least 2 / size apart: extrema are unique, far from any tie."""
    size = int(numpy.prod(shape))
    values = numpy.linspace(-1, 1, max(size, 2))[:size]
    return numpy.random.permutation(values).reshape(shape).astype(dtype)


class TestMaxMin(FunctionTestCase):
    params = (product({'reduction': _REDUCTIONS, 'shape': [(3, 2, 4)],
                       'axis': [None, -1, (2, 0)], 'keepdims': [False, True],
                       'dtype': FLOAT_DTYPES})
              + product({'reduction': _REDUCTIONS, 'shape': [()], 'axis': [None],
                         'keepdims': [False], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        return _distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.reduction)(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(numpy, self.reduction)(inputs[0], axis=self.axis,
                                               keepdims=self.keepdims)),


class TestMaxMinTies(FunctionTestCase):
    """On ties every tied element receives the whole output gradient, as in Chainer."""

    params = product({'reduction': _REDUCTIONS, 'axis': [None, 1], 'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # ties are kinks: no numerical derivative
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([[1, 3, 3, -2], [0, 0, 0.5, -2], [3, -2, 1, 1]], self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.reduction)(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(numpy, self.reduction)(inputs[0], axis=self.axis)),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        extremum = getattr(numpy, self.reduction)(x, axis=self.axis, keepdims=True)
        gy = gy if self.axis is None else numpy.expand_dims(gy, self.axis)
        return numpy.where(x == extremum, gy, 0).astype(x.dtype),


def test_tie_gradient_values():
    x = Variable(numpy.array([[1, 3, 3], [2, 2, 0]], numpy.float32))
    y = F.max(x, axis=1)
    y.grad = numpy.array([1, 2], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 1], [2, 2, 0]])


class TestArgMaxArgMin(FunctionTestCase):
    params = product({'name': ['argmax', 'argmin'], 'shape': [(3, 2, 4)],
                      'axis': [None, 0, 1, 2, -1, -3], 'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # integer output: not differentiable
    skip_double_backward_test = True

    def generate_inputs(self):
        return _distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(numpy, self.name)(inputs[0], axis=self.axis),
                             numpy.int32),


@pytest.mark.parametrize('name', ['argmax', 'argmin'])
@pytest.mark.parametrize('device', devices(), ids=str)
def test_argmax_argmin_give_no_gradient(name, device):
    x = Variable(device.send(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)))
    y = getattr(F, name)(x)
    assert y.dtype == numpy.int32 and y.shape == ()
    y.backward()
    assert x.grad is None


def test_argmax_first_on_ties():
    x = numpy.array([[1, 3, 3], [2, 2, 0]], numpy.float32)
    numpy.testing.assert_array_equal(F.argmax(x, axis=1).array, [1, 0])
    numpy.testing.assert_array_equal(F.argmin(x, axis=1).array, [0, 2])


@pytest.mark.parametrize('name', ['max', 'min'])
@pytest.mark.parametrize('axis, error, message', [
    ([0], TypeError, 'axis must be None, an int or a tuple of ints, but got list'),
    ((1, 'x'), TypeError, 'axis must be an int, but got str'),
    ((0, 0), ValueError, 'axis must not repeat an axis'),
    ((1, -2), ValueError, 'axis must not repeat an axis'),
    (3, ValueError, r'axis must be in \[-3, 3\) for an input of 3 dimensions, but got 3'),
])
def test_max_min_reject_bad_axis(name, axis, error, message):
    with pytest.raises(error, match=f'{name}: {message}'):
        getattr(F, name)(numpy.zeros((3, 2, 4), numpy.float32), axis=axis)


@pytest.mark.parametrize('name', ['argmax', 'argmin'])
@pytest.mark.parametrize('axis, error, message', [
    ((0,), TypeError, 'axis must be an int, but got tuple'),
    (3, ValueError, r'axis must be in \[-3, 3\)'),
])
def test_argmax_argmin_reject_bad_axis(name, axis, error, message):
    with pytest.raises(error, match=f'{name}: {message}'):
        getattr(F, name)(numpy.zeros((3, 2, 4), numpy.float32), axis=axis)


@pytest.mark.parametrize('name', ['max', 'min', 'argmax', 'argmin'])
def test_reject_integer_input(name):
    with pytest.raises(TypeError, match=f'{name}: x must be a floating-point array, '
                                        'but got dtype int32'):
        getattr(F, name)(numpy.zeros(3, numpy.int32))
