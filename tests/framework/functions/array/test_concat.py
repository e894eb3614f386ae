import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FunctionTestCase, product


def _uniform(shape, dtype):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


_CASES = [([(2, 3, 4), (2, 1, 4), (2, 2, 4)], 1), ([(2, 3, 4), (2, 3, 1)], -1),
          ([(2, 3, 4), (2, 3, 4)], 0), ([(3,), (2,), (0,)], 0), ([(2, 3)], 1),
          ([(2, 0), (2, 2)], 1)]


class TestConcat(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return tuple(_uniform(shape, self.dtype) for shape in self.case[0])

    def forward(self, inputs, device):
        return F.concat(inputs, self.case[1]),

    def forward_expected(self, inputs):
        return numpy.concatenate(inputs, self.case[1]),

    def backward_expected(self, inputs, grad_outputs):
        axis = self.case[1]
        gy, = grad_outputs
        gxs, start = [], 0
        for x in inputs:
            index = [slice(None)] * gy.ndim
            index[axis] = slice(start, start + x.shape[axis])
            gxs.append(gy[tuple(index)])
            start += x.shape[axis]
        return tuple(gxs)


def test_concat_default_axis_is_one():
    xs = [numpy.zeros((2, 3), numpy.float32), numpy.ones((2, 1), numpy.float32)]
    assert F.concat(xs).shape == (2, 4)


def test_concat_of_variables_and_arrays_gives_gradients_to_variables_only():
    a = Variable(numpy.ones((2, 2), numpy.float32))
    b = numpy.zeros((2, 1), numpy.float32)
    y = F.concat((a, b), axis=1)
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [[0, 1], [3, 4]])


def test_concat_int_inputs():
    xs = [numpy.arange(2, dtype=numpy.int32), numpy.arange(3, dtype=numpy.int32)]
    numpy.testing.assert_array_equal(F.concat(xs, axis=0).array, [0, 1, 0, 1, 2])


def test_concat_rejects_no_inputs():
    with pytest.raises(ValueError, match='concat: xs must hold at least one array, but got none'):
        F.concat([])


def test_concat_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match=r'concat: xs\[1\] must have the dtype of xs\[0\]'):
        F.concat([numpy.zeros((2, 2), numpy.float32), numpy.zeros((2, 2), numpy.float64)])


def test_concat_rejects_mixed_ndims():
    with pytest.raises(ValueError, match=r'concat: xs\[1\] must have as many dimensions as '
                                         r'xs\[0\] \(2, 2\), but got shape \(2, 2, 1\)'):
        F.concat([numpy.zeros((2, 2)), numpy.zeros((2, 2, 1))])


def test_concat_rejects_shapes_that_differ_off_the_axis():
    with pytest.raises(ValueError, match=r'concat: xs\[1\] must have the shape of xs\[0\] '
                                         r'\(2, 2\) except along axis 1, but got shape \(3, 2\)'):
        F.concat([numpy.zeros((2, 2)), numpy.zeros((3, 2))], axis=1)


def test_concat_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'concat: axis must be in \[-2, 2\)'):
        F.concat([numpy.zeros((2, 2)), numpy.zeros((2, 2))], axis=2)


def test_concat_rejects_scalars():
    with pytest.raises(ValueError, match=r'concat: axis must be in \[0, 0\)'):
        F.concat([numpy.zeros(()), numpy.zeros(())], axis=0)


def test_concat_rejects_a_non_array_input():
    with pytest.raises(TypeError, match=r'concat: xs\[1\] must be a Variable or an array, '
                                        r'but got list'):
        F.concat([numpy.zeros((2,)), [1.0]], axis=0)
