import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_CASES = [(0, 0), (0, 2), (0, 3), (2, 0), (2, 1), (-1, -3), (-3, -1), (1, 3)]


class TestRollaxis(FunctionTestCase):
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': [(1, 0), (2, 3)], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.rollaxis(inputs[0], *self.case),

    def forward_expected(self, inputs):
        return numpy.rollaxis(inputs[0], *self.case),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        # The axes of x have distinct lengths, so the output's shape names the permutation.
        perm = [x.shape.index(s) for s in numpy.rollaxis(x, *self.case).shape]
        return grad_outputs[0].transpose(numpy.argsort(perm)),


def test_rollaxis_default_start_is_zero():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    assert F.rollaxis(x, 2).shape == (4, 2, 3)


def test_rollaxis_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'rollaxis: axis must be in \[-3, 3\) .* but got 3'):
        F.rollaxis(numpy.zeros((2, 3, 4)), 3)


def test_rollaxis_rejects_start_out_of_range():
    with pytest.raises(ValueError, match=r'rollaxis: start must be in \[-3, 3\] .* but got 4'):
        F.rollaxis(numpy.zeros((2, 3, 4)), 0, 4)


def test_rollaxis_rejects_non_int_start():
    with pytest.raises(TypeError, match='rollaxis: start must be an int, but got float'):
        F.rollaxis(numpy.zeros((2, 3, 4)), 0, 1.0)
