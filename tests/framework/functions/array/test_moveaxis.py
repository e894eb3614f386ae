import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_CASES = [(0, 2), ((0, 1), (2, 0)), (2, 0), (-1, 0), (1, -1), ((-1, 0), (0, -1)),
          ((0, 1, 2), (1, 2, 0)), ((), ())]


class TestMoveaxis(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.moveaxis(inputs[0], *self.case),

    def forward_expected(self, inputs):
        return numpy.moveaxis(inputs[0], *self.case),

    def backward_expected(self, inputs, grad_outputs):
        source, destination = self.case
        return numpy.moveaxis(grad_outputs[0], destination, source),


def test_moveaxis_int_input():
    x = numpy.arange(6, dtype=numpy.int32).reshape(1, 2, 3)
    numpy.testing.assert_array_equal(F.moveaxis(x, 0, -1).array, numpy.moveaxis(x, 0, -1))


@pytest.mark.parametrize('source, destination, message', [
    (3, 0, r'moveaxis: source must be in \[-3, 3\)'),
    (0, -4, r'moveaxis: destination must be in \[-3, 3\)'),
    ((0, 0), (1, 2), r'moveaxis: source must not repeat an axis, but got \(0, 0\)'),
    ((0, 1), (2, -1), 'moveaxis: destination must not repeat an axis'),
    ((0, 1), (2,), 'moveaxis: source and destination must have the same number of axes'),
])
def test_moveaxis_rejects_bad_axes(source, destination, message):
    with pytest.raises(ValueError, match=message):
        F.moveaxis(numpy.zeros((2, 3, 4), numpy.float32), source, destination)
