import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestFlip(FunctionTestCase):
    params = product({
        'case': [((1,), 0), ((2, 3), 0), ((2, 3), 1), ((2, 3), -1), ((2, 3, 4), -2),
                 ((0, 3), 1)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        shape, _ = self.case
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flip(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.flip(inputs[0], self.case[1]),


def test_flip_int_input():
    x = numpy.arange(4, dtype=numpy.int32).reshape(2, 2)
    numpy.testing.assert_array_equal(F.flip(x, 0).array, [[2, 3], [0, 1]])


def test_flip_rejects_axis_that_is_not_an_int():
    with pytest.raises(TypeError, match='flip: axis must be an int, but got float'):
        F.flip(numpy.zeros((2, 3), numpy.float32), 1.0)


def test_flip_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'flip: axis must be in \[-2, 2\) .* but got 2'):
        F.flip(numpy.zeros((2, 3), numpy.float32), 2)


def test_flip_rejects_a_scalar():
    with pytest.raises(ValueError, match='flip: x must have at least 1 dimensions'):
        F.flip(numpy.zeros((), numpy.float32), 0)
