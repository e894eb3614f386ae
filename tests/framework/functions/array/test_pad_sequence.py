import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


class TestPadSequence(FunctionTestCase):
    params = product({
        'lengths': [[2, 3, 1], [0, 2], [0, 0], [4]],
        'shape': [(), (2, 1)],
        'length_padding': [(None, 0), (6, -1.5)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (n,) + self.shape).astype(self.dtype)
                     for n in self.lengths)

    def forward(self, inputs, device):
        length, padding = self.length_padding
        return F.pad_sequence(list(inputs), length, padding),

    def forward_expected(self, inputs):
        length, padding = self.length_padding
        length = max(self.lengths) if length is None else length
        y = numpy.full((len(inputs), length) + self.shape, padding, self.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        return y,


def test_pad_sequence_gradient_skips_inputs_without_one():
    a = Variable(numpy.ones((2, 2), numpy.float32))
    b = numpy.ones((1, 2), numpy.float32)
    y = F.pad_sequence([a, b], length=3)
    y.grad = numpy.arange(12, dtype=numpy.float32).reshape(2, 3, 2)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [[0, 1], [2, 3]])


def test_pad_sequence_int_input():
    y = F.pad_sequence([numpy.array([1, 2], numpy.int32), numpy.array([3], numpy.int32)],
                       padding=-1)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[1, 2], [3, -1]])


@pytest.mark.parametrize('xs, length, error, match', [
    ([], None, ValueError, 'pad_sequence: xs must be a non-empty list'),
    ([numpy.zeros(2), numpy.zeros(2, numpy.float32)], None, TypeError,
     r'pad_sequence: xs\[1\] must have the dtype of xs\[0\] \(float64\)'),
    ([numpy.zeros((2, 3)), numpy.zeros((2, 2))], None, ValueError,
     r'pad_sequence: xs\[1\] must have the shape of xs\[0\] \(2, 3\) after its first axis'),
    ([numpy.zeros(())], None, ValueError,
     r'pad_sequence: xs\[0\] must have at least 1 dimensions'),
    ([numpy.zeros(3), numpy.zeros(2)], 2, ValueError,
     r'pad_sequence: length must be at least the length of the longest input \(3\), but got 2'),
    ([numpy.zeros(3)], 3.0, TypeError, 'pad_sequence: length must be an int or None'),
])
def test_pad_sequence_rejects_bad_input(xs, length, error, match):
    with pytest.raises(error, match=match):
        F.pad_sequence(xs, length)
