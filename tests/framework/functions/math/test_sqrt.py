import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_REFERENCES = {'sqrt': numpy.sqrt, 'rsqrt': lambda x: 1 / numpy.sqrt(x)}


class TestSqrt(FunctionTestCase):
    params = product({'name': list(_REFERENCES), 'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        return numpy.random.uniform(0.1, 5, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return _REFERENCES[self.name](x).astype(x.dtype),


def _value_and_grad(func, values):
    x = Variable(numpy.array(values, numpy.float32))
    y = func(x)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        gx, = grad([y], [x], [numpy.ones_like(x.array)])
    return y.array, gx.array


def test_sqrt_at_zero_and_below():
    with numpy.errstate(invalid='ignore'):
        y, gx = _value_and_grad(F.sqrt, [0.0, -1.0])
    assert y[0] == 0 and gx[0] == numpy.inf
    assert numpy.isnan(y[1]) and numpy.isnan(gx[1])


def test_rsqrt_at_zero():
    with numpy.errstate(divide='ignore'):
        y, gx = _value_and_grad(F.rsqrt, [0.0, 1e-20])
    assert y[0] == numpy.inf and gx[0] == -numpy.inf
    numpy.testing.assert_allclose(y[1], 1e10, rtol=1e-6)
    numpy.testing.assert_allclose(gx[1], -0.5e30, rtol=1e-6)


@pytest.mark.parametrize('name', list(_REFERENCES))
def test_rejects_integer_input(name):
    with pytest.raises(TypeError, match=f'{name}: x must be a floating-point array, '
                                        'but got dtype int32'):
        getattr(F, name)(numpy.ones(3, numpy.int32))
