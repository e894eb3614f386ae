import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestSquare(FunctionTestCase):
    params = product({'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.square(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return x * x,


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='square: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.square(numpy.ones(3, numpy.int32))
