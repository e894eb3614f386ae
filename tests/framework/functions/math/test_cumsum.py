import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestCumsum(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': [None, 0, 2, -2],
                       'dtype': FLOAT_DTYPES})
              + product({'shape': [(5,)], 'axis': [None, 0], 'dtype': FLOAT_DTYPES})
              + product({'shape': [()], 'axis': [None], 'dtype': FLOAT_DTYPES})
              + product({'shape': [(3, 0)], 'axis': [None, 0, 1], 'dtype': [numpy.float32]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumsum(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.cumsum(inputs[0], axis=self.axis),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        axis = 0 if self.axis is None else self.axis
        # The gradient of x_i sums the output gradients from i to the end.
        gx = numpy.flip(numpy.cumsum(numpy.flip(gy, axis), axis), axis)
        return gx.reshape(x.shape),


def test_known_values():
    x = numpy.array([[1, 2, 3], [4, 5, 6]], numpy.float32)
    numpy.testing.assert_array_equal(F.cumsum(x).array, [1, 3, 6, 10, 15, 21])
    numpy.testing.assert_array_equal(F.cumsum(x, axis=1).array, [[1, 3, 6], [4, 9, 15]])


@pytest.mark.parametrize('axis, error, message', [
    ((0,), TypeError, 'cumsum: axis must be an int, but got tuple'),
    (2, ValueError, r'cumsum: axis must be in \[-2, 2\) for an input of 2 dimensions, '
                    'but got 2'),
])
def test_rejects_bad_axis(axis, error, message):
    with pytest.raises(error, match=message):
        F.cumsum(numpy.zeros((3, 2), numpy.float32), axis=axis)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='cumsum: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.cumsum(numpy.zeros(3, numpy.int32))
