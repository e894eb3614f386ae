import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestFlatten(FunctionTestCase):
    params = product({'shape': [(3, 4), (2, 3, 4), (5,), (), (2, 0)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flatten(inputs[0]),

    def forward_expected(self, inputs):
        return inputs[0].ravel(),

    def backward_expected(self, inputs, grad_outputs):
        return grad_outputs[0].reshape(inputs[0].shape),


def test_flatten_of_a_transposed_input_follows_c_order():
    x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    numpy.testing.assert_array_equal(F.flatten(F.transpose(x)).array, [0, 3, 1, 4, 2, 5])


def test_flatten_rejects_a_list():
    with pytest.raises(TypeError, match='flatten: x must be a Variable or an array'):
        F.flatten([1.0, 2.0])
