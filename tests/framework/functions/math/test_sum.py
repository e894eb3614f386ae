import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_AXES = [None, 1, -1, (-1, 0), ()]


class TestSum(FunctionTestCase):
    params = (product({'shape': [(3, 2, 4)], 'axis': _AXES, 'keepdims': [False, True],
                       'dtype': FLOAT_DTYPES})
              + product({'shape': [()], 'axis': [None, ()], 'keepdims': [False, True],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sum(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(x.sum(axis=self.axis, keepdims=self.keepdims)),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        gy = gy if self.keepdims else numpy.expand_dims(gy, axis)
        return numpy.broadcast_to(gy, x.shape),


class TestSumTo(FunctionTestCase):
    params = product({
        'shapes': [((3, 2, 4), (2, 1)), ((3, 2, 4), (3, 1, 4)), ((3, 2, 4), ()),
                   ((2, 3), (1, 3)), ((2, 3), (2, 3)), ((), ())],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sum_to(inputs[0], self.shapes[1]),

    def forward_expected(self, inputs):
        x, = inputs
        shape = self.shapes[1]
        lead = x.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1)
        return numpy.asarray(x.sum(axis=axes).reshape(shape)),


def test_sum_known_values():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    assert F.sum(x).array == 15
    numpy.testing.assert_array_equal(F.sum(x, axis=1).array, [3, 12])
    numpy.testing.assert_array_equal(F.sum(x, axis=-2, keepdims=True).array, [[3, 5, 7]])
    assert F.sum(x, keepdims=True).shape == (1, 1)


def test_sum_double_backward_of_square():
    x = Variable(numpy.array([1.0, 2.0, 3.0]))
    y = F.sum(x * x)
    gx, = grad([y], [x], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, [2, 4, 6])
    ggx, = grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array, [2, 2, 2])


def test_sum_to_same_shape_is_identity():
    x = Variable(numpy.ones((2, 3), numpy.float32))
    assert F.sum_to(x, (2, 3)) is x


@pytest.mark.parametrize('axis, error, message', [
    (3, ValueError, r'sum: axis must be in \[-3, 3\) for an input of 3 dimensions, but got 3'),
    (-4, ValueError, r'sum: axis must be in \[-3, 3\)'),
    ((0, 0), ValueError, 'sum: axis must not repeat an axis'),
    ((1, -2), ValueError, 'sum: axis must not repeat an axis'),
    ((1, 'x'), TypeError, 'sum: axis must be an int, but got str'),
    ([0], TypeError, 'sum: axis must be None, an int or a tuple of ints, but got list'),
])
def test_sum_rejects_bad_axis(axis, error, message):
    with pytest.raises(error, match=message):
        F.sum(numpy.zeros((3, 2, 4), numpy.float32), axis=axis)


def test_sum_rejects_integer_input():
    with pytest.raises(TypeError, match='sum: x must be a floating-point array, but got dtype '
                                        'int32'):
        F.sum(numpy.ones(3, numpy.int32))


def test_sum_to_rejects_a_shape_that_does_not_broadcast():
    with pytest.raises(ValueError, match=r'sum_to: shape \(3,\) must broadcast to the shape of '
                                         r'x \(2, 4\)'):
        F.sum_to(numpy.zeros((2, 4), numpy.float32), (3,))
    with pytest.raises(ValueError, match='sum_to: shape'):
        F.sum_to(numpy.zeros((4,), numpy.float32), (1, 4))
