import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FunctionTestCase, product

_CASES = [((3, 4), (2, -1)), ((2, 3, 4), (6, 1, 4)), ((3, 4), (4, 3)), ((3, 4), (-1,)),
          ((), (1, 1)), ((1,), ()), ((6,), 6), ((0, 3), (3, 0, 5)), ((2, 3), [3, 2])]


class TestReshape(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.reshape(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return inputs[0].reshape(self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        return grad_outputs[0].reshape(inputs[0].shape),


def test_reshape_to_the_same_shape_returns_the_input():
    x = Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.reshape(x, (2, 3)) is x
    y = F.reshape(x.array, (2, 3))
    assert isinstance(y, Variable) and y.array is x.array and not y.requires_grad


def test_variable_reshape_forms():
    x = Variable(numpy.arange(6, dtype=numpy.float32))
    assert x.reshape(2, 3).shape == (2, 3)
    assert x.reshape((3, 2)).shape == (3, 2)
    assert x.reshape([1, -1]).shape == (1, 6)
    assert x.reshape(numpy.int64(6), 1).shape == (6, 1)
    assert F.reshape(x, numpy.array([3, 2])).shape == (3, 2)


def test_reshape_int_input_and_order():
    y = F.reshape(numpy.arange(6, dtype=numpy.int32), (2, 3))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[0, 1, 2], [3, 4, 5]])


def test_reshape_gradient_keeps_c_order():
    x = Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.reshape(x, (3, 2))
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 2], [3, 4, 5]])


@pytest.mark.parametrize('shape', [(-1, -1), (2, -3)])
def test_reshape_rejects_more_than_one_unknown_size(shape):
    with pytest.raises(ValueError, match='reshape: shape may contain one -1'):
        F.reshape(numpy.zeros(6), shape)


@pytest.mark.parametrize('shape', [(4, 2), (4, -1), (0, -1)])
def test_reshape_rejects_a_shape_of_another_size(shape):
    with pytest.raises(ValueError, match=r'reshape: x of shape \(6,\) \(6 elements\) cannot be '
                                         r'reshaped to'):
        F.reshape(numpy.zeros(6), shape)


@pytest.mark.parametrize('shape', [(2.0, 3), (3.5, 2), 6.0, '6', numpy.array([[6]])])
def test_reshape_rejects_sizes_that_are_not_ints(shape):
    with pytest.raises(TypeError, match='reshape: shape must be an int or a sequence of ints'):
        F.reshape(numpy.zeros(6), shape)


def test_reshape_rejects_a_list_input():
    with pytest.raises(TypeError, match='reshape: x must be a Variable or an array'):
        F.reshape([1.0, 2.0], (2,))
