import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _expected_accuracy(y, t, ignore_label):
    pred = y.reshape(y.shape[:2] + (-1,)).argmax(axis=1).reshape(t.shape)
    keep = numpy.ones(t.shape, bool) if ignore_label is None else t != ignore_label
    total = keep.sum()
    return (pred == t)[keep].sum() / total if total else 0.0


class TestAccuracy(FunctionTestCase):
    """Accuracy has no gradient, so only its forward is checked."""

    params = product({
        'shapes': [((10, 3), (10,)), ((4, 3, 5), (4, 5)), ((4, 3, 5, 1, 1), (4, 5)),
                   ((6, 2), (6,))],
        'ignore_label': [None, 0],
        'dtype': FLOAT_DTYPES,
    })
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        y_shape, t_shape = self.shapes
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        t = numpy.random.randint(0, y_shape[1], t_shape).astype(numpy.int32)
        return y, t

    def forward(self, inputs, device):
        y, t = inputs
        return F.accuracy(y, t, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        y, t = inputs
        return numpy.asarray(_expected_accuracy(y, t, self.ignore_label), self.dtype),


def test_accuracy_takes_the_first_maximum_on_ties():
    y = numpy.array([[1.0, 1.0, 0.0], [0.0, 2.0, 2.0]], numpy.float32)
    assert F.accuracy(y, numpy.array([0, 1], numpy.int32)).array == 1.0
    assert F.accuracy(y, numpy.array([1, 2], numpy.int32)).array == 0.0


def test_accuracy_is_zero_when_every_label_is_ignored():
    y = numpy.zeros((3, 2), numpy.float32)
    acc = F.accuracy(y, numpy.full(3, -1, numpy.int32), ignore_label=-1)
    assert acc.array == 0.0 and acc.dtype == numpy.float32 and acc.shape == ()


def test_accuracy_has_no_gradient():
    y = Variable(numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32))
    acc = F.accuracy(y, numpy.array([0, 1, 2, 0], numpy.int32))
    assert grad([acc], [y]) == [None]


def test_accuracy_rejects_integer_scores():
    with pytest.raises(TypeError, match='accuracy: y must be a floating-point array'):
        F.accuracy(numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32))


def test_accuracy_rejects_float_labels():
    with pytest.raises(TypeError, match='accuracy: t must be a signed integer array'):
        F.accuracy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.float32))


@pytest.mark.parametrize('y_shape, t_shape', [
    ((2, 3), (3,)), ((2, 3, 4), (2, 5)), ((2, 3, 2), (2,)), ((2,), (2,)), ((2, 3), ())])
def test_accuracy_rejects_mismatched_shapes(y_shape, t_shape):
    with pytest.raises(ValueError, match='accuracy: y must have shape'):
        F.accuracy(numpy.zeros(y_shape, numpy.float32), numpy.zeros(t_shape, numpy.int32))
