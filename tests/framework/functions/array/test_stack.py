import numpy
import pytest

import framework.functions as F
from framework.testing import FunctionTestCase, product

_CASES = [((3, 4), 3, 0), ((3, 4), 2, -1), ((3, 4), 2, 1), ((3, 4), 2, 2), ((3, 4), 2, -3),
          ((), 3, 0), ((2,), 1, -1)]


class TestStack(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        shape, n, _ = self.case
        return tuple(numpy.random.uniform(-1, 1, shape).astype(self.dtype) for _ in range(n))

    def forward(self, inputs, device):
        return F.stack(inputs, self.case[2]),

    def forward_expected(self, inputs):
        return numpy.stack(inputs, self.case[2]),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return tuple(numpy.take(gy, i, axis=self.case[2]) for i in range(len(inputs)))


def test_stack_default_axis_is_zero():
    xs = [numpy.zeros((2, 3), numpy.float32)] * 4
    assert F.stack(xs).shape == (4, 2, 3)


def test_stack_rejects_different_shapes():
    with pytest.raises(ValueError, match=r'stack: xs\[1\] must have the shape of xs\[0\] '
                                         r'\(2, 3\), but got shape \(3, 2\)'):
        F.stack([numpy.zeros((2, 3)), numpy.zeros((3, 2))])


def test_stack_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'stack: axis must be in \[-3, 3\)'):
        F.stack([numpy.zeros((2, 3))], axis=3)


def test_stack_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match=r'stack: xs\[1\] must have the dtype of xs\[0\]'):
        F.stack([numpy.zeros(2, numpy.float16), numpy.zeros(2, numpy.float32)])


def test_stack_rejects_no_inputs():
    with pytest.raises(ValueError, match='stack: xs must hold at least one array'):
        F.stack([])
