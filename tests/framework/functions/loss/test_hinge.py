import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _expected_hinge(x, t, norm, reduce):
    x = x.astype(numpy.float64)
    signs = numpy.where(numpy.arange(x.shape[1]) == t[:, None], -1.0, 1.0)
    loss = numpy.maximum(0, 1 + signs * x) ** (1 if norm == 'L1' else 2)
    if reduce == 'mean':
        loss = loss.sum() / len(x)
    return numpy.asarray(loss)


class TestHinge(FunctionTestCase):
    params = product({'shape': [(5, 4), (1, 3)], 'norm': ['L1', 'L2'],
                      'reduce': ['mean', 'no'], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape)
        # keep 1 +- x away from the kinks at x = +-1
        near_kink = abs(abs(x) - 1) < 0.1
        x[near_kink] = 0.5 * numpy.sign(x[near_kink])
        t = numpy.random.randint(0, self.shape[1], self.shape[0]).astype(numpy.int32)
        return x.astype(self.dtype), t

    def forward(self, inputs, device):
        x, t = inputs
        return F.hinge(x, t, norm=self.norm, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_hinge(x, t, self.norm, self.reduce).astype(self.dtype),


class TestHingeAtKinks(FunctionTestCase):
    """Where ``1 - delta x`` is 0 the loss and its gradient are 0."""

    params = product({'norm': ['L1', 'L2'], 'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.array([[1.0, -1.0, 0.5], [-1.0, 2.0, 1.0]], self.dtype)
        return x, numpy.array([0, 2], numpy.int32)

    def forward(self, inputs, device):
        x, t = inputs
        return F.hinge(x, t, norm=self.norm, reduce='no'),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_hinge(x, t, self.norm, 'no').astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        # only x[0, 2] (1 + 0.5) and x[1, 1] (1 + 2) are past their kinks, both with sign +1
        factor = numpy.array([[0, 0, 1], [0, 1, 0]], self.dtype)
        if self.norm == 'L2':
            factor *= 2 * numpy.array([[0, 0, 1.5], [0, 3, 0]], self.dtype)
        return gy * factor,


def test_hinge_docstring_example():
    x = numpy.array([[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]], numpy.float32)
    t = numpy.array([1, 0], numpy.int32)
    assert F.hinge(x, t).array == numpy.float32(2.5)
    assert F.hinge(x, t, norm='L2').array == numpy.float32(5.75)
    numpy.testing.assert_array_equal(F.hinge(x, t, reduce='no').array,
                                     [[0, 0, 1.5], [0, 3, 0.5]])


def test_hinge_rejects_bad_norm():
    with pytest.raises(NotImplementedError, match="hinge: norm must be 'L1' or 'L2'"):
        F.hinge(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32), norm='L3')


def test_hinge_rejects_bad_reduce():
    with pytest.raises(ValueError, match="hinge: reduce must be 'mean' or 'no', but got 'sum'"):
        F.hinge(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32), reduce='sum')


def test_hinge_rejects_float_labels():
    with pytest.raises(TypeError, match='hinge: t must be a signed integer array'):
        F.hinge(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.float32))


def test_hinge_rejects_bad_label_shape():
    with pytest.raises(ValueError, match=r'hinge: t must have shape \(2,\), but got shape \(3,\)'):
        F.hinge(numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.int32))
