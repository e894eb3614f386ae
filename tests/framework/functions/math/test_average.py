import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestAverage(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': [None, -1, (0, 2), ()],
                       'keepdims': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'shape': [()], 'axis': [None], 'keepdims': [False, True],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.average(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.mean(x, axis=self.axis, keepdims=self.keepdims)),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        axis = tuple(range(x.ndim)) if self.axis is None else numpy.atleast_1d(self.axis)
        axis = tuple(int(a) % x.ndim for a in axis)
        count = int(numpy.prod([x.shape[a] for a in axis]))
        gy = gy if self.keepdims else numpy.expand_dims(gy, axis)
        return numpy.broadcast_to(gy / count, x.shape),


class TestWeightedAverage(FunctionTestCase):
    params = product({'axis': [None, 1, -1, (2,)], 'keepdims': [False, True],
                      'dtype': FLOAT_DTYPES})

    @property
    def check_forward_options(self):
        # The expected value is computed in float64; float16 rounds the weighted sum.
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 2, 4)).astype(self.dtype)
        w_shape = x.shape if self.axis is None else (x.shape[numpy.atleast_1d(self.axis)[0]],)
        # Positive weights keep their sum, the divider, away from 0.
        return x, numpy.random.uniform(0.5, 1, w_shape).astype(self.dtype)

    def forward(self, inputs, device):
        x, w = inputs
        return F.average(x, axis=self.axis, weights=w, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, w = (a.astype(numpy.float64) for a in inputs)
        axis = self.axis[0] if isinstance(self.axis, tuple) else self.axis
        y = numpy.average(x, axis=axis, weights=w, keepdims=self.keepdims)
        return numpy.asarray(y).astype(self.dtype),


def test_mean_is_the_alias_of_average():
    assert F.mean is F.average
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.testing.assert_allclose(F.mean(x, axis=1).array, [1, 4])


def test_weighted_known_values():
    x = numpy.array([[1, 2, 3], [4, 5, 6]], numpy.float32)
    w = numpy.array([1, 0, 3], numpy.float32)
    numpy.testing.assert_allclose(F.average(x, axis=1, weights=w).array, [2.5, 5.5])


@pytest.mark.parametrize('kwargs, error, message', [
    ({'axis': [0]}, TypeError, 'average: axis must be None, an int or a tuple of ints, '
                               'but got list'),
    ({'axis': (1, 'x')}, TypeError, 'average: axis must be an int, but got str'),
    ({'axis': (0, 0)}, ValueError, 'average: axis must not repeat an axis'),
    ({'axis': (1, -2)}, ValueError, 'average: axis must not repeat an axis'),
    ({'axis': 3}, ValueError, r'average: axis must be in \[-3, 3\)'),
    ({'axis': (0, 1), 'weights': numpy.ones(6, numpy.float32)}, ValueError,
     r'average: with weights, axis must be None or a single axis, but got \(0, 1\)'),
    ({'axis': 1, 'weights': numpy.ones(3, numpy.float32)}, ValueError,
     r'average: weights must have shape \(2,\) for x of shape \(3, 2, 4\) and axis 1, '
     r'but got shape \(3,\)'),
    ({'weights': numpy.ones(4, numpy.float32)}, ValueError,
     r'average: weights must have shape \(3, 2, 4\)'),
    ({'axis': 0, 'weights': numpy.ones(3, numpy.float64)}, TypeError,
     r'average: weights must have the dtype of x \(float32\), but got dtype float64'),
])
def test_rejects_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        F.average(numpy.zeros((3, 2, 4), numpy.float32), **kwargs)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='average: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.average(numpy.zeros(3, numpy.int32))


def test_rejects_a_list():
    with pytest.raises(TypeError, match='average: x must be a Variable or an array, '
                                        'but got list'):
        F.average([1.0, 2.0])
