import numpy
import pytest

import framework.functions as F
from framework import Variable, using_config
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestSelectItem(FunctionTestCase):
    params = product({
        'in_shape': [(10, 5), (0, 3), (1, 40)],
        'dtype': FLOAT_DTYPES,
        't_dtype': [numpy.int8, numpy.int32, numpy.int64],
    })

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype)
        t = numpy.random.randint(0, self.in_shape[1], self.in_shape[0]).astype(self.t_dtype)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.select_item(x, t),

    def forward_expected(self, inputs):
        x, t = inputs
        return numpy.array([x[i, j] for i, j in enumerate(t)], x.dtype).reshape(len(t)),

    def backward_expected(self, inputs, grad_outputs):
        x, t = inputs
        gx = numpy.zeros_like(x)
        for i, j in enumerate(t):
            gx[i, j] = grad_outputs[0][i]
        return gx,


def test_select_item_with_a_variable_t():
    x = Variable(numpy.array([[0, 1, 2], [3, 4, 5]], numpy.float32))
    t = Variable(numpy.array([0, 2], numpy.int32))
    y = F.select_item(x, t)
    numpy.testing.assert_array_equal(y.array, [0, 5])
    y.grad = numpy.array([1, 2], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 0, 0], [0, 0, 2]])
    assert t.grad is None


@pytest.mark.parametrize('t', [[0, 3], [-1, 0]])
def test_select_item_checks_t_in_debug_mode(t):
    x = numpy.zeros((2, 3), numpy.float32)
    with using_config('debug', True):
        with pytest.raises(ValueError, match=r'select_item: each t must be in \[0, 3\)'):
            F.select_item(x, numpy.array(t, numpy.int32))


@pytest.mark.parametrize('x_shape, t, error, match', [
    ((2, 3), numpy.zeros(2, numpy.float32), TypeError,
     'select_item: t must be a signed integer array, but got dtype float32'),
    ((2, 3, 1), numpy.zeros(2, numpy.int32), ValueError,
     r'select_item: x must be 2-dimensional, but got shape \(2, 3, 1\)'),
    ((2, 3), numpy.zeros(3, numpy.int32), ValueError,
     r'select_item: t must have shape \(2,\), but got shape \(3,\)'),
])
def test_select_item_rejects_bad_input(x_shape, t, error, match):
    with pytest.raises(error, match=match):
        F.select_item(numpy.zeros(x_shape, numpy.float32), t)
