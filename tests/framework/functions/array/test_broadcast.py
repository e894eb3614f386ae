import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _sum_to_shape(g, shape):
    """Sums g over the axes that broadcasting ``shape`` to ``g.shape`` added or stretched."""
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead)))
    for axis, size in enumerate(shape):
        if size == 1:
            g = g.sum(axis=axis, keepdims=True)
    return g


class _SumsInFloat16(FunctionTestCase):

    @property
    def check_forward_options(self):
        # The gradient sums up to 20 float16 values, whose rounding exceeds the default.
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}


class TestBroadcastTo(_SumsInFloat16):
    params = product({
        'case': [((3, 1), (3, 4)), ((4,), (2, 3, 4)), ((), (2, 3)), ((2, 1, 3), (5, 2, 4, 3)),
                 ((1, 1), (0, 2)), ((2, 3), (2, 3)), ((1,), [3])],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.broadcast_to(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.broadcast_to(inputs[0], self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        return _sum_to_shape(grad_outputs[0].astype(numpy.float64),
                             inputs[0].shape).astype(self.dtype),


class TestBroadcast(_SumsInFloat16):
    params = product({
        'shapes': [((3, 1), (1, 4)), ((2, 3, 4), (4,), ()), ((2, 1), (2, 1)), ((3,), (0, 1))],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return tuple(F.broadcast(*inputs))

    def forward_expected(self, inputs):
        return tuple(numpy.broadcast_arrays(*inputs))

    def backward_expected(self, inputs, grad_outputs):
        return tuple(_sum_to_shape(g.astype(numpy.float64), x.shape).astype(self.dtype)
                     for x, g in zip(inputs, grad_outputs))


def test_broadcast_to_the_same_shape_returns_the_input():
    x = Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.broadcast_to(x, (2, 3)) is x


def test_broadcast_of_one_input_returns_a_variable():
    x = numpy.arange(3, dtype=numpy.float32)
    y = F.broadcast(x)
    assert isinstance(y, Variable)
    numpy.testing.assert_array_equal(y.array, x)


def test_broadcast_to_int_input():
    y = F.broadcast_to(numpy.arange(3, dtype=numpy.int32), (2, 3))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[0, 1, 2], [0, 1, 2]])


def test_broadcast_to_gradient_sums_the_copies():
    x = Variable(numpy.zeros((2, 1), numpy.float32))
    y = F.broadcast_to(x, (3, 2, 4))
    y.grad = numpy.ones((3, 2, 4), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[12], [12]])


@pytest.mark.parametrize('x_shape, shape', [((3,), (4,)), ((2, 3), (3,)), ((2, 3), (2, 1))])
def test_broadcast_to_rejects_incompatible_shapes(x_shape, shape):
    with pytest.raises(ValueError, match=rf'broadcast_to: x of shape {x_shape} cannot be '
                                         r'broadcast to'.replace('(', r'\(').replace(')', r'\)')):
        F.broadcast_to(numpy.zeros(x_shape), shape)


def test_broadcast_to_rejects_negative_sizes():
    with pytest.raises(ValueError, match=r'broadcast_to: x of shape \(1,\) cannot be broadcast '
                                         r'to \(-1,\)'):
        F.broadcast_to(numpy.zeros(1), (-1,))


def test_broadcast_to_rejects_sizes_that_are_not_ints():
    with pytest.raises(TypeError, match='broadcast_to: shape must be an int or a sequence of ints'):
        F.broadcast_to(numpy.zeros(1), (2.5,))


def test_broadcast_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r'broadcast: the shapes of the inputs must broadcast '
                                         r'together, but got args\[0\] \(2,\), args\[1\] \(3,\)'):
        F.broadcast(numpy.zeros(2), numpy.zeros(3))
