import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_REFERENCES = {'sin': numpy.sin, 'cos': numpy.cos, 'tan': numpy.tan}


class TestTrigonometric(FunctionTestCase):
    params = product({'name': list(_REFERENCES), 'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        return _REFERENCES[self.name](inputs[0]),


@pytest.mark.parametrize('name', list(_REFERENCES))
def test_rejects_integer_input(name):
    with pytest.raises(TypeError, match=f'{name}: x must be a floating-point array, '
                                        'but got dtype int32'):
        getattr(F, name)(numpy.zeros(3, numpy.int32))
