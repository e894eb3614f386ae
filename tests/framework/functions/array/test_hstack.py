import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_SHAPES = [[(2, 3), (2, 1)], [(3,), (2,)], [(2, 3, 4), (2, 2, 4), (2, 1, 4)], [(), ()], [(4,)],
           [()], [(2, 0), (2, 2)]]


class TestHstack(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'shapes': _SHAPES, 'dtype': [numpy.float32]})
              + product({'shapes': _SHAPES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.hstack(inputs),

    def forward_expected(self, inputs):
        return numpy.hstack(inputs),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        axis = 1 if inputs[0].ndim >= 2 else 0
        sizes = [x.shape[axis] if x.ndim else 1 for x in inputs]
        pieces = numpy.split(gy, numpy.cumsum(sizes)[:-1], axis=axis)
        return tuple(p.reshape(x.shape) for p, x in zip(pieces, inputs))


def test_hstack_rejects_mixed_ndims():
    with pytest.raises(ValueError, match=r'hstack: xs\[1\] must have as many dimensions'):
        F.hstack([numpy.zeros((2,)), numpy.zeros((2, 1))])


def test_hstack_rejects_shapes_that_differ_off_the_second_axis():
    with pytest.raises(ValueError, match=r'hstack: xs\[1\] must have the shape of xs\[0\] '
                                         r'\(2, 3\) except along axis 1'):
        F.hstack([numpy.zeros((2, 3)), numpy.zeros((3, 3))])


def test_hstack_rejects_no_inputs():
    with pytest.raises(ValueError, match='hstack: xs must hold at least one array'):
        F.hstack(())
