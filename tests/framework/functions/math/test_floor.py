import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestFloor(FunctionTestCase):
    params = product({'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES + (numpy.int32,)})
    skip_backward_test = True  # floor is not differentiable: its output is outside the graph
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-15, 15, self.shape), self.dtype),

    def forward(self, inputs, device):
        return F.floor(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.array([numpy.floor(float(v)) for v in x.ravel()],
                           x.dtype).reshape(x.shape),


def test_negative_values_round_down():
    y = F.floor(numpy.array([-1.5, -1.0, -0.25, 0.0, 0.75], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [-2.0, -1.0, -1.0, 0.0, 0.0])


def test_output_is_outside_the_graph():
    x = Variable(numpy.array([0.5, 1.5], numpy.float32))
    y = F.floor(x)
    assert not y.requires_grad
    assert y.creator is None
    z = x * 2.0 + y
    z.grad = numpy.ones(2, numpy.float32)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_rejects_boolean_input():
    with pytest.raises(TypeError, match='floor: x must be a floating-point or signed integer or '
                                        'unsigned integer array, but got dtype bool'):
        F.floor(numpy.array([True]))
