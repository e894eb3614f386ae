import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_CASES = [((3, 2), 1), ((3, 2), -3), ((3, 2), 0), ((3, 2), 2), ((3, 2), -1), ((), 0), ((), -1)]


class TestExpandDims(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.expand_dims(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.expand_dims(inputs[0], self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        return grad_outputs[0].reshape(inputs[0].shape),


def test_expand_dims_keyword_and_int_input():
    y = F.expand_dims(numpy.array([1, 2, 3]), axis=1)
    assert y.shape == (3, 1)
    numpy.testing.assert_array_equal(y.array, [[1], [2], [3]])


@pytest.mark.parametrize('axis', [3, -4])
def test_expand_dims_rejects_axis_out_of_range(axis):
    with pytest.raises(ValueError, match=rf'expand_dims: axis must be in \[-3, 3\) .* {axis}'):
        F.expand_dims(numpy.zeros((3, 2), numpy.float32), axis)


def test_expand_dims_rejects_non_int_axis():
    with pytest.raises(TypeError, match='expand_dims: axis must be an int, but got tuple'):
        F.expand_dims(numpy.zeros((3, 2), numpy.float32), (0,))
