import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestSwapaxes(FunctionTestCase):
    params = product({
        'case': [((2, 3, 4), 0, 2), ((2, 3, 4), -1, 1), ((2, 3), 1, 1), ((3,), 0, -1)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, axis1, axis2 = self.case
        return F.swapaxes(inputs[0], axis1, axis2),

    def forward_expected(self, inputs):
        _, axis1, axis2 = self.case
        return numpy.swapaxes(inputs[0], axis1, axis2),

    def backward_expected(self, inputs, grad_outputs):
        _, axis1, axis2 = self.case
        return numpy.swapaxes(grad_outputs[0], axis1, axis2),


def test_swapaxes_keywords():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert F.swapaxes(x, axis1=0, axis2=1).shape == (3, 2, 4)


def test_swapaxes_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'swapaxes: axis2 must be in \[-3, 3\) .* but got 3'):
        F.swapaxes(numpy.zeros((2, 3, 4)), 0, 3)


def test_swapaxes_rejects_non_int_axis():
    with pytest.raises(TypeError, match='swapaxes: axis1 must be an int, but got float'):
        F.swapaxes(numpy.zeros((2, 3, 4)), 0.0, 1)
