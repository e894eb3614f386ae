import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestFlipud(FunctionTestCase):
    params = product({'shape': [(1,), (3,), (3, 4), (2, 3, 2)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flipud(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.flipud(inputs[0]),


def test_flipud_rejects_a_scalar():
    with pytest.raises(ValueError, match='flipud: a must have at least 1 dimensions'):
        F.flipud(numpy.zeros((), numpy.float32))


def test_flipud_rejects_int():
    with pytest.raises(TypeError, match='flipud: a must be a floating-point array'):
        F.flipud(numpy.zeros(2, numpy.int32))
