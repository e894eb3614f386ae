import numpy
import pytest

import framework.functions as F
from framework import Variable, using_config
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestPermutate(FunctionTestCase):
    params = product({
        'case': [((3,), 0, False), ((3,), -1, True), ((3, 4), 1, True), ((3, 4, 5), 2, False),
                 ((3, 4, 5), -2, False), ((3, 4, 5), -3, True), ((0, 2), 0, True)],
        'dtype': FLOAT_DTYPES,
        'indices_kind': [(numpy.int8, False), (numpy.int64, True)],
    })

    def generate_inputs(self):
        shape, axis, _ = self.case
        indices_dtype, self.indices_as_variable = self.indices_kind
        self.indices = numpy.random.permutation(shape[axis]).astype(indices_dtype)
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        _, axis, inv = self.case
        indices = device.send(self.indices)
        if self.indices_as_variable:
            indices = Variable(indices)
        return F.permutate(inputs[0], indices, axis=axis, inv=inv),

    def forward_expected(self, inputs):
        x, = inputs
        _, axis, inv = self.case
        y = numpy.empty_like(x)
        x_moved, y_moved = numpy.moveaxis(x, axis, 0), numpy.moveaxis(y, axis, 0)
        for i, j in enumerate(self.indices):
            if inv:
                y_moved[j] = x_moved[i]
            else:
                y_moved[i] = x_moved[j]
        return y,


def test_permutate_positional_arguments():
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y = F.permutate(x, numpy.array([1, 0], numpy.int32), 1, True)
    numpy.testing.assert_array_equal(y.array, [[1, 0], [3, 2], [5, 4]])


@pytest.mark.parametrize('indices', [[0, 0], [-1, 0], [0, 2]])
def test_permutate_checks_indices_in_debug_mode(indices):
    x = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    with using_config('debug', True):
        with pytest.raises(ValueError, match='permutate: indices must be a permutation of 0 .. 1'):
            F.permutate(x, numpy.array(indices, numpy.int32))


@pytest.mark.parametrize('x_shape, indices, axis, error, match', [
    ((3,), numpy.zeros(3, numpy.float32), 0, TypeError,
     'permutate: indices must be a signed integer array, but got dtype float32'),
    ((3,), numpy.zeros((3, 1), numpy.int32), 0, ValueError,
     r'permutate: indices must be 1-dimensional, but got shape \(3, 1\)'),
    ((3, 2), numpy.arange(3, dtype=numpy.int32), 1, ValueError,
     r'permutate: indices must have one entry per slice of x along axis 1 \(2\)'),
    ((3, 2), numpy.arange(3, dtype=numpy.int32), 2, ValueError,
     r'permutate: axis must be in \[-2, 2\)'),
])
def test_permutate_rejects_bad_input(x_shape, indices, axis, error, match):
    with pytest.raises(error, match=match):
        F.permutate(numpy.zeros(x_shape, numpy.float32), indices, axis)


def test_permutate_rejects_indices_on_another_device():
    from framework.testing.emulated_device import EmulatedDevice
    indices = EmulatedDevice().send(numpy.arange(3, dtype=numpy.int32))
    with pytest.raises(ValueError, match='permutate: all inputs must be on one device'):
        F.permutate(numpy.zeros(3, numpy.float32), indices)
