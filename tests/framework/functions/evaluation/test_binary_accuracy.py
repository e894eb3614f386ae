import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestBinaryAccuracy(FunctionTestCase):
    """Binary accuracy has no gradient, so only its forward is checked."""

    params = product({'shape': [(10,), (4, 5), (2, 3, 2)], 'label_low': [0, -1],
                      'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        y.flat[0] = 0  # predicted positive: y >= 0
        t = numpy.random.randint(self.label_low, 2, self.shape).astype(numpy.int32)
        return y, t

    def forward(self, inputs, device):
        return F.binary_accuracy(*inputs),

    def forward_expected(self, inputs):
        y, t = inputs
        keep = t != -1
        correct = ((y >= 0).astype(numpy.int32) == t) & keep
        return numpy.asarray(correct.sum() / max(keep.sum(), 1), self.dtype),


def test_binary_accuracy_is_zero_when_every_label_is_ignored():
    acc = F.binary_accuracy(numpy.ones(3, numpy.float32), numpy.full(3, -1, numpy.int32))
    assert acc.array == 0.0 and acc.dtype == numpy.float32


def test_binary_accuracy_has_no_gradient():
    y = Variable(numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32))
    acc = F.binary_accuracy(y, numpy.ones((4, 3), numpy.int32))
    assert grad([acc], [y]) == [None]


def test_binary_accuracy_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r'binary_accuracy: t must have the shape of y \(2, 3\)'):
        F.binary_accuracy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(6, numpy.int32))


def test_binary_accuracy_rejects_float_labels():
    with pytest.raises(TypeError, match='binary_accuracy: t must be a signed integer array'):
        F.binary_accuracy(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32))
