import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _expected_huber(x, t, delta, reduce):
    a = numpy.abs(x.astype(numpy.float64) - t)
    loss = numpy.where(a <= delta, 0.5 * a ** 2, delta * (a - 0.5 * delta))
    return loss.sum(axis=1) if reduce == 'sum_along_second_axis' else loss


class TestHuberLoss(FunctionTestCase):
    params = product({'shape': [(4, 5), (2, 3, 2, 2)], 'delta': [1.0, 0.3],
                      'reduce': ['sum_along_second_axis', 'no'], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        t = numpy.random.uniform(-1, 1, self.shape)
        diff = numpy.random.uniform(-3, 3, self.shape) * self.delta
        # keep |x - t| away from the kink at delta
        near_kink = abs(abs(diff) - self.delta) < 0.1 * self.delta
        diff[near_kink] *= 0.5
        return (t + diff).astype(self.dtype), t.astype(self.dtype)

    def forward(self, inputs, device):
        x, t = inputs
        return F.huber_loss(x, t, self.delta, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_huber(x, t, self.delta, self.reduce).astype(self.dtype),


class TestHuberLossAtKink(FunctionTestCase):
    """At ``|x - t| == delta`` the gradient is ``clip(x - t, -delta, delta)`` (= +-delta)."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return (numpy.array([[1.5, -0.5, 0.25, 3.0]], self.dtype),
                numpy.array([[0.5, 0.5, 0.0, 0.0]], self.dtype))

    def forward(self, inputs, device):
        x, t = inputs
        return F.huber_loss(x, t, 1.0, reduce='no'),

    def forward_expected(self, inputs):
        return numpy.array([[0.5, 0.5, 0.03125, 2.5]], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        gx = gy * numpy.array([[1.0, -1.0, 0.25, 1.0]], self.dtype)
        return gx, -gx


def test_huber_loss_rejects_bad_reduce():
    with pytest.raises(ValueError, match="huber_loss: reduce must be 'sum_along_second_axis' or"):
        F.huber_loss(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32), 1,
                     reduce='mean')


@pytest.mark.parametrize('delta', [0, -1.0])
def test_huber_loss_rejects_non_positive_delta(delta):
    with pytest.raises(ValueError, match=f'huber_loss: delta must be positive, but got {delta}'):
        F.huber_loss(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32),
                     delta)


def test_huber_loss_rejects_non_numeric_delta():
    with pytest.raises(TypeError, match='huber_loss: delta must be a real number, but got str'):
        F.huber_loss(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32),
                     '1')


def test_huber_loss_rejects_one_dimensional_inputs_when_summing():
    with pytest.raises(ValueError, match='huber_loss: x must have at least 2 dimensions'):
        F.huber_loss(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32), 1.0)


def test_huber_loss_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r'huber_loss: t must have the shape of x \(2, 3\)'):
        F.huber_loss(numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32), 1)
