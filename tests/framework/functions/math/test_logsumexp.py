import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


class TestLogSumExp(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': [None, -1, (2, 0)],
                       'keepdims': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'shape': [()], 'axis': [None], 'keepdims': [False, True],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.logsumexp(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.log(numpy.exp(x).sum(axis=self.axis, keepdims=self.keepdims))
        return numpy.asarray(y).astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x = inputs[0].astype(numpy.float64)
        gy, = grad_outputs
        e = numpy.exp(x)
        softmax = e / e.sum(axis=self.axis, keepdims=True)
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        gy = gy if self.keepdims else numpy.expand_dims(gy, axis)
        return (gy * softmax).astype(self.dtype),


@pytest.mark.parametrize('device', devices(), ids=str)
def test_large_values_do_not_overflow(device):
    x = Variable(device.send(numpy.array([[1000, 1000], [-1000, -1000]], numpy.float32)))
    y = F.logsumexp(x, axis=1)
    numpy.testing.assert_allclose(device.send(y.array).tolist(),
                                  [1000 + numpy.log(2), -1000 + numpy.log(2)], rtol=1e-6)
    y.grad = device.send(numpy.ones(2, numpy.float32))
    y.backward()
    # exp(x - y) with y rounded to float32 near 1000 (a unit in the last place is 6e-5).
    numpy.testing.assert_allclose(x.grad.tolist(), [[0.5, 0.5], [0.5, 0.5]], rtol=1e-4)


@pytest.mark.filterwarnings('ignore:divide by zero encountered in log:RuntimeWarning')
def test_infinite_slices():
    x = numpy.array([[-numpy.inf, -numpy.inf], [0, -numpy.inf], [numpy.inf, 0]])
    numpy.testing.assert_array_equal(F.logsumexp(x, axis=1).array, [-numpy.inf, 0, numpy.inf])


def test_rejects_bad_arguments():
    x = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(TypeError, match='logsumexp: axis must be None, an int or a tuple of '
                                        'ints, but got list'):
        F.logsumexp(x, axis=[0])
    with pytest.raises(ValueError, match='logsumexp: axis must not repeat an axis'):
        F.logsumexp(x, axis=(0, -2))
    with pytest.raises(TypeError, match='logsumexp: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.logsumexp(numpy.zeros(3, numpy.int32))
