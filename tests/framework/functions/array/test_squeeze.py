import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FunctionTestCase, product

_CASES = [((1, 3, 1, 2), None), ((1, 3, 1, 2), (2, 0)), ((1, 3, 1, 2), 0), ((1, 3, 1, 2), -2),
          ((1, 3, 1, 2), ()), ((1, 1), None), ((1,), 0), ((), None), ((1, 0, 1), None)]


class TestSqueeze(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.squeeze(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.squeeze(inputs[0], self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        return grad_outputs[0].reshape(inputs[0].shape),


def test_squeeze_default_removes_every_axis_of_length_one():
    x = Variable(numpy.zeros((2, 1, 1, 3), numpy.float32))
    assert F.squeeze(x).shape == (2, 3)
    assert F.squeeze(x, axis=1).shape == (2, 1, 3)


def test_squeeze_rejects_an_axis_longer_than_one():
    with pytest.raises(ValueError, match=r'squeeze: axis 1 of x must have length 1 to be '
                                         r'removed, but x has shape \(1, 3\)'):
        F.squeeze(numpy.zeros((1, 3), numpy.float32), 1)


def test_squeeze_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'squeeze: axis must be in \[-2, 2\)'):
        F.squeeze(numpy.zeros((1, 1), numpy.float32), -3)


def test_squeeze_rejects_repeated_axes():
    with pytest.raises(ValueError, match='squeeze: axis must not repeat an axis'):
        F.squeeze(numpy.zeros((1, 1), numpy.float32), (0, -2))


@pytest.mark.parametrize('axis', [[0], 0.0, (0, 1.0)])
def test_squeeze_rejects_axis_of_the_wrong_type(axis):
    with pytest.raises(TypeError, match='squeeze: axis must be None, an int or a tuple of ints'):
        F.squeeze(numpy.zeros((1, 1), numpy.float32), axis)
