import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# (x shape, y shape, axis)
CASES = [((3, 2, 4), (2,), 1), ((3, 2, 4), (2, 4), 1), ((3, 2, 4), (3,), 0),
         ((2, 3), (3,), 1), ((4,), (), 1)]


class TestBias(FunctionTestCase):
    params = product({'case': CASES, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        x_shape, y_shape, _ = self.case
        return (numpy.random.uniform(-1, 1, x_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, y_shape).astype(self.dtype))

    def forward(self, inputs, device):
        x, y = inputs
        return F.bias(x, y, self.case[2]),

    def forward_expected(self, inputs):
        x, y = inputs
        axis = self.case[2]
        aligned = y.reshape((1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim))
        return (x + aligned).astype(x.dtype),


def test_mismatched_shapes():
    with pytest.raises(ValueError, match=r'bias: y of shape \(3,\) must match the axes of x'):
        F.bias(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32), 0)
