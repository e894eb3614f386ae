import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _expected_loss(x, t, normalize, reduce):
    x = x.astype(numpy.float64)
    p = 1 / (1 + numpy.exp(-x))
    valid = t != -1
    loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)) * valid
    if reduce == 'no':
        return loss
    count = max(valid.sum(), 1) if normalize else max(len(x), 1)
    return numpy.asarray(loss.sum() / count)


class TestSigmoidCrossEntropy(FunctionTestCase):
    params = product({'shape': [(8, 3), (4, 2, 3), (5,)], 'label_low': [0, -1],
                      'normalize': [True, False], 'reduce': ['mean', 'no'],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        t = numpy.random.randint(self.label_low, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.sigmoid_cross_entropy(x, t, normalize=self.normalize, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_loss(x, t, self.normalize, self.reduce).astype(self.dtype),


def test_sigmoid_cross_entropy_is_stable_for_large_logits():
    x = numpy.array([-1000.0, 1000.0, 1000.0], numpy.float32)
    loss = F.sigmoid_cross_entropy(x, numpy.array([0, 1, 0], numpy.int32), reduce='no')
    numpy.testing.assert_allclose(loss.array, [0, 0, 1000])


def test_sigmoid_cross_entropy_is_zero_when_every_label_is_ignored():
    x = numpy.ones((2, 3), numpy.float32)
    assert F.sigmoid_cross_entropy(x, numpy.full((2, 3), -1, numpy.int32)).array == 0


def test_sigmoid_cross_entropy_rejects_bad_reduce():
    with pytest.raises(ValueError, match="sigmoid_cross_entropy: reduce must be 'mean' or 'no'"):
        F.sigmoid_cross_entropy(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.int32),
                                reduce='sum')


def test_sigmoid_cross_entropy_rejects_float_labels():
    with pytest.raises(TypeError, match='sigmoid_cross_entropy: t must be a signed integer'):
        F.sigmoid_cross_entropy(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32))


def test_sigmoid_cross_entropy_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r'sigmoid_cross_entropy: t must have the shape of x'):
        F.sigmoid_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32))
