import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestFliplr(FunctionTestCase):
    params = product({'shape': [(1, 2), (3, 4), (2, 3, 2)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.fliplr(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.fliplr(inputs[0]),


def test_fliplr_rejects_one_dimension():
    with pytest.raises(ValueError, match='fliplr: a must have at least 2 dimensions'):
        F.fliplr(numpy.zeros(3, numpy.float32))


def test_fliplr_rejects_int():
    with pytest.raises(TypeError, match='fliplr: a must be a floating-point array'):
        F.fliplr(numpy.zeros((2, 2), numpy.int32))
