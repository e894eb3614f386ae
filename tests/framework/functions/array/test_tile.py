import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestTile(FunctionTestCase):
    params = product({
        'in_shape': [(), (2,), (2, 3)],
        'reps': [(), 0, 2, (0, 0), (2, 0), (2, 1, 3)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tile(inputs[0], self.reps),

    def forward_expected(self, inputs):
        return numpy.tile(inputs[0], self.reps),

    def backward_expected(self, inputs, grad_outputs):
        # Each input element receives the sum of the gradients of its copies.
        x, = inputs
        gy = grad_outputs[0].astype(numpy.float64)
        gx = numpy.zeros(x.shape)
        for index in numpy.ndindex(*x.shape):
            e = numpy.zeros(x.shape)
            e[index] = 1
            gx[index] = (numpy.tile(e, self.reps) * gy).sum()
        return gx.astype(self.dtype),


@pytest.mark.parametrize('reps', [-1, (-1, -1), (2, -1)])
def test_tile_rejects_negative_reps(reps):
    with pytest.raises(ValueError, match='tile: reps must be non-negative'):
        F.tile(numpy.zeros(2, numpy.float32), reps)


@pytest.mark.parametrize('reps', ['a', 1.5, (1, 2.0), [2, 2]])
def test_tile_rejects_reps_that_are_not_ints(reps):
    with pytest.raises(TypeError, match='tile: reps must be an int or a tuple of ints'):
        F.tile(numpy.zeros(2, numpy.float32), reps)


def test_tile_rejects_x_that_is_not_an_array():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(TypeError, match='tile: x must be a Variable or an array, but got tuple'):
        F.tile((x, x), 2)
