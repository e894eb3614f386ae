import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# (x shape, y shape, axis)
CASES = [((3, 2, 4), (2,), 1), ((3, 2, 4), (2, 4), 1), ((3, 2, 4), (3,), 0),
         ((3, 2, 4), (4,), 2), ((2, 3), (2, 3), 0), ((4,), (), 1)]


def _aligned(x, y, axis):
    return y.reshape((1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim))


class TestScale(FunctionTestCase):
    params = product({'case': CASES, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        x_shape, y_shape, _ = self.case
        return (numpy.random.uniform(-1, 1, x_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, y_shape).astype(self.dtype))

    def forward(self, inputs, device):
        x, y = inputs
        return F.scale(x, y, self.case[2]),

    def forward_expected(self, inputs):
        x, y = inputs
        return (x * _aligned(x, y, self.case[2])).astype(x.dtype),


def test_default_axis_is_one():
    x = numpy.ones((2, 3, 2), numpy.float32)
    y = numpy.array([1, 2, 3], numpy.float32)
    numpy.testing.assert_array_equal(F.scale(x, y).array[0, :, 1], [1, 2, 3])


@pytest.mark.parametrize('y_shape, axis', [((3,), 0), ((2,), 1), ((3, 3), 1), ((2, 3, 2, 1), 0),
                                           ((2,), -1)])
def test_mismatched_shapes(y_shape, axis):
    x = numpy.ones((2, 3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r'scale: y of shape .* must match the axes of x'):
        F.scale(x, numpy.ones(y_shape, numpy.float32), axis)


def test_axis_must_be_an_int():
    with pytest.raises(TypeError, match='scale: axis must be an int'):
        F.scale(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32), 1.0)
