import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FunctionTestCase, product

_CASES = [((2, 3, 4), (1, 0, 2)), ((2, 3, 4), None), ((2, 3, 4), (-1, 0, 1)), ((2, 3), (0, 1)),
          ((3,), None), ((), None), ((0, 3), (1, 0))]


class TestTranspose(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.transpose(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.transpose(inputs[0], self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        axes = self.case[1]
        axes = range(x.ndim)[::-1] if axes is None else [a % x.ndim for a in axes]
        inverse = [list(axes).index(i) for i in range(x.ndim)]
        return grad_outputs[0].transpose(inverse),


def test_transpose_default_reverses_the_axes():
    x = numpy.arange(24, dtype=numpy.float32).reshape(1, 2, 3, 4)
    numpy.testing.assert_array_equal(F.transpose(x).array, x.T)


def test_variable_transpose_forms():
    x = Variable(numpy.arange(6, dtype=numpy.float32).reshape(1, 2, 3))
    assert x.T.shape == (3, 2, 1)
    assert x.transpose().shape == (3, 2, 1)
    assert x.transpose(None).shape == (3, 2, 1)
    assert x.transpose(2, 0, 1).shape == (3, 1, 2)
    assert x.transpose((2, 0, 1)).shape == (3, 1, 2)
    assert x.transpose([1, 2, 0]).shape == (2, 3, 1)


def test_transpose_int_input():
    x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    y = F.transpose(x, (1, 0))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, x.T)


def test_transpose_is_a_view_and_keeps_a_node():
    x = Variable(numpy.zeros((2, 2), numpy.float32))
    y = F.transpose(x, (0, 1))
    assert y is not x and y.creator is not None


def test_transpose_rejects_axes_of_the_wrong_length():
    with pytest.raises(ValueError, match=r'transpose: axes must have one entry per axis of x '
                                         r'\(3\), but got \(1, 0\)'):
        F.transpose(numpy.zeros((2, 3, 4)), (1, 0))


def test_transpose_rejects_repeated_axes():
    with pytest.raises(ValueError, match='transpose: axes must be a permutation'):
        F.transpose(numpy.zeros((2, 3)), (1, -1))


def test_transpose_rejects_axes_out_of_range():
    with pytest.raises(ValueError, match=r'transpose: axes must be in \[-2, 2\)'):
        F.transpose(numpy.zeros((2, 3)), (0, 2))


def test_transpose_rejects_a_list_input():
    with pytest.raises(TypeError, match='transpose: x must be a Variable or an array'):
        F.transpose([[1.0, 2.0]])
