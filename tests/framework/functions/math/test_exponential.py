import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# name: (NumPy reference, input range)
_FUNCTIONS = {
    'exp': (numpy.exp, (-1.0, 1.0)),
    'log': (numpy.log, (0.5, 5.0)),
    'log2': (numpy.log2, (0.5, 5.0)),
    'log10': (numpy.log10, (0.5, 5.0)),
}


class TestExponential(FunctionTestCase):
    params = product({'name': list(_FUNCTIONS), 'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        low, high = _FUNCTIONS[self.name][1]
        return numpy.random.uniform(low, high, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        return _FUNCTIONS[self.name][0](inputs[0]),


@pytest.mark.parametrize('name', list(_FUNCTIONS))
def test_rejects_integer_input(name):
    with pytest.raises(TypeError, match=f'{name}: x must be a floating-point array, '
                                        'but got dtype int32'):
        getattr(F, name)(numpy.ones(3, numpy.int32))


def test_log_of_zero_and_negative():
    with numpy.errstate(divide='ignore', invalid='ignore'):
        y = F.log(numpy.array([0.0, -1.0], numpy.float32))
    assert y.array[0] == -numpy.inf
    assert numpy.isnan(y.array[1])
