import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def depth2space_loops(x, r):
    """Output channel c at (h * r + i, w * r + j) is input channel (i * r + j) * C + c at (h, w)."""
    n, rrc, h, w = x.shape
    c = rrc // (r * r)
    y = numpy.empty((n, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * c + k]
    return y


class TestDepth2Space(FunctionTestCase):
    params = product({
        'case': [((1, 4, 2, 3), 2), ((2, 18, 2, 1), 3), ((2, 3, 2, 2), 1), ((1, 8, 0, 2), 2)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        shape, _ = self.case
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.depth2space(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return depth2space_loops(inputs[0], self.case[1]),


def test_depth2space_chainer_example():
    x = numpy.arange(24).reshape(1, 4, 2, 3).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.depth2space(x, 2).array, [[
        [[0, 6, 1, 7, 2, 8], [12, 18, 13, 19, 14, 20],
         [3, 9, 4, 10, 5, 11], [15, 21, 16, 22, 17, 23]]]])


def test_depth2space_inverts_space2depth():
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 6)).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.depth2space(F.space2depth(x, 2), 2).array, x)


@pytest.mark.parametrize('x, r, error, match', [
    (numpy.zeros((1, 6, 2, 2), numpy.float32), 2, ValueError,
     r'depth2space: the channels of X must be a multiple of r \* r \(4\)'),
    (numpy.zeros((4, 2, 2), numpy.float32), 2, ValueError,
     'depth2space: X must be 4-dimensional'),
    (numpy.zeros((1, 4, 2, 2), numpy.int64), 2, TypeError,
     'depth2space: X must be a floating-point array'),
    (numpy.zeros((1, 4, 2, 2), numpy.float32), -2, ValueError,
     'depth2space: r must be positive, but got -2'),
])
def test_depth2space_rejects_bad_input(x, r, error, match):
    with pytest.raises(error, match=match):
        F.depth2space(x, r)
