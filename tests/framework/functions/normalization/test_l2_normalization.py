import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase


class TestNormalize(FunctionTestCase):
    params = [{'shape': s, 'axis': a, 'eps': e, 'dtype': d}
              for s, a in (((3, 4), 1), ((2, 3, 4), (1, 2)), ((2, 3, 4), -1), ((4, 3), 0),
                           ((5,), 0))
              for e in (1e-5, 0.5) for d in FLOAT_DTYPES]

    def _setup(self, param):
        super()._setup(param)
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_backward_options = self.check_double_backward_options = loose

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.normalize(x, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        norm = numpy.sqrt((x * x).sum(axis=self.axis, keepdims=True))
        return (x / (norm + self.eps)).astype(self.dtype),


class TestNormalizeZeroVector(FunctionTestCase):
    """A zero vector gives zeros, and its gradient is gy / eps, as in Chainer."""
    params = [{'dtype': d} for d in FLOAT_DTYPES]
    skip_backward_test = True  # the norm has no derivative at 0
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0]], self.dtype),

    def forward(self, inputs, device):
        return F.normalize(inputs[0], eps=0.5),

    def forward_expected(self, inputs):
        return numpy.array([[0, 0, 0], [3 / 5.5, 0, 4 / 5.5]], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x = inputs[0].astype(numpy.float64)
        gy = grad_outputs[0].astype(numpy.float64)
        gx = gy / 0.5
        # the second row: (gy * norm - x * (x . gy) / |x|) / norm^2 with norm = 5.5
        gx[1] = (gy[1] * 5.5 - x[1] * (x[1] @ gy[1]) / 5) / 5.5 ** 2
        return gx.astype(self.dtype),


def test_normalize_double_backward_of_zero_vector_is_finite():
    x = Variable(numpy.zeros((2, 3)))
    gx, = grad([F.sum(F.normalize(x) * numpy.arange(6.0).reshape(2, 3))], [x],
               enable_double_backprop=True)
    ggx, = grad([F.sum(gx * gx)], [x])
    assert numpy.isfinite(ggx.array).all()


@pytest.mark.parametrize('kwargs, error, message', [
    ({'axis': 2}, ValueError, r'normalize: axis must be in \[-2, 2\) for an input of 2 '
                              r'dimensions, but got 2'),
    ({'axis': None}, TypeError, r'normalize: axis must be an int or a tuple of ints, but got '
                                r'None'),
    ({'eps': -1}, ValueError, r'normalize: eps must be non-negative, but got -1'),
])
def test_normalize_rejects_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        F.normalize(numpy.zeros((2, 3), numpy.float32), **kwargs)
