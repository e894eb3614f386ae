import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def space2depth_loops(x, r):
    """Output channel (i * r + j) * C + c at (h, w) is input channel c at (h * r + i, w * r + j)."""
    n, c, h, w = x.shape
    y = numpy.empty((n, c * r * r, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return y


class TestSpace2Depth(FunctionTestCase):
    params = product({
        'case': [((1, 1, 4, 6), 2), ((2, 3, 6, 3), 3), ((2, 2, 3, 4), 1), ((1, 2, 0, 4), 2)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        shape, _ = self.case
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.space2depth(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return space2depth_loops(inputs[0], self.case[1]),


def test_space2depth_chainer_example():
    x = numpy.arange(24).reshape(1, 1, 4, 6).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.space2depth(x, 2).array, [[
        [[0, 2, 4], [12, 14, 16]], [[1, 3, 5], [13, 15, 17]],
        [[6, 8, 10], [18, 20, 22]], [[7, 9, 11], [19, 21, 23]]]])


@pytest.mark.parametrize('x, r, error, match', [
    (numpy.zeros((1, 1, 4, 5), numpy.float32), 2, ValueError,
     r'space2depth: the height and width of X must be multiples of r \(2\)'),
    (numpy.zeros((1, 4, 4), numpy.float32), 2, ValueError,
     'space2depth: X must be 4-dimensional'),
    (numpy.zeros((1, 1, 4, 4), numpy.int32), 2, TypeError,
     'space2depth: X must be a floating-point array'),
    (numpy.zeros((1, 1, 4, 4), numpy.float32), 0, ValueError,
     'space2depth: r must be positive, but got 0'),
    (numpy.zeros((1, 1, 4, 4), numpy.float32), 2.0, TypeError,
     'space2depth: r must be an int, but got float'),
])
def test_space2depth_rejects_bad_input(x, r, error, match):
    with pytest.raises(error, match=match):
        F.space2depth(x, r)
