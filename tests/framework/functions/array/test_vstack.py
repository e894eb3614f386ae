import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_SHAPES = [[(2, 3), (1, 3)], [(3,), (3,), (3,)], [(2, 3, 4), (3, 3, 4)], [(), ()], [(4,)],
           [(2, 3)], [(0,), (0,)]]


class TestVstack(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'shapes': _SHAPES, 'dtype': [numpy.float32]})
              + product({'shapes': _SHAPES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.vstack(inputs),

    def forward_expected(self, inputs):
        return numpy.vstack(inputs),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        sizes = [x.shape[0] if x.ndim >= 2 else 1 for x in inputs]
        pieces = numpy.split(gy, numpy.cumsum(sizes)[:-1], axis=0)
        return tuple(p.reshape(x.shape) for p, x in zip(pieces, inputs))


def test_vstack_rejects_vectors_of_different_lengths():
    with pytest.raises(ValueError, match=r'vstack: xs\[1\] must have the shape of xs\[0\] '
                                         r'\(3,\), but got shape \(2,\)'):
        F.vstack([numpy.zeros((3,)), numpy.zeros((2,))])


def test_vstack_rejects_shapes_that_differ_off_the_first_axis():
    with pytest.raises(ValueError, match=r'vstack: xs\[1\] must have the shape of xs\[0\] '
                                         r'\(2, 3\) except along axis 0'):
        F.vstack([numpy.zeros((2, 3)), numpy.zeros((2, 2))])


def test_vstack_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match=r'vstack: xs\[1\] must have the dtype of xs\[0\]'):
        F.vstack([numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.int32)])
