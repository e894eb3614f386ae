import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _numpy_repeat(x, repeats, axis):
    if isinstance(repeats, tuple) and len(repeats) == 1:
        repeats = repeats[0]
    return numpy.repeat(x, repeats, axis)


class TestRepeat(FunctionTestCase):
    params = product({
        'case': (
            product({'shape': [(2,)], 'repeats': [0, 2, True, (2,), (0, 3)],
                     'axis': [None, 0]})
            + product({'shape': [(3, 2)], 'repeats': [4, (4,), (1, 0, 2, 3, 1, 2), (True,) * 6],
                       'axis': [None]})
            + product({'shape': [(3, 2)], 'repeats': [5, (2, 0, 1)], 'axis': [0]})
            + product({'shape': [(3, 2)], 'repeats': [3, (1, 2)], 'axis': [1]})
            + product({'shape': [(3, 2, 4)], 'repeats': [2, (3, 1)], 'axis': [-2]})
            + product({'shape': [()], 'repeats': [3], 'axis': [None]})
        ),
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case['shape']).astype(self.dtype),

    def forward(self, inputs, device):
        return F.repeat(inputs[0], self.case['repeats'], self.case['axis']),

    def forward_expected(self, inputs):
        return _numpy_repeat(inputs[0], self.case['repeats'], self.case['axis']),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy = grad_outputs[0].astype(numpy.float64)
        gx = numpy.zeros(x.shape)
        for index in numpy.ndindex(*x.shape):
            e = numpy.zeros(x.shape)
            e[index] = 1
            gx[index] = (_numpy_repeat(e, self.case['repeats'], self.case['axis']) * gy).sum()
        return gx.astype(self.dtype),


def test_repeat_keyword_axis():
    x = numpy.array([[1, 2], [3, 4]], numpy.float32)
    numpy.testing.assert_array_equal(F.repeat(x, (1, 2), axis=0).array,
                                     [[1, 2], [3, 4], [3, 4]])


@pytest.mark.parametrize('repeats', [-1, (-1, -1)])
def test_repeat_rejects_negative_repeats(repeats):
    with pytest.raises(ValueError, match='repeat: repeats must be non-negative'):
        F.repeat(numpy.zeros(2, numpy.float32), repeats, -1)


def test_repeat_rejects_repeats_of_the_wrong_length():
    with pytest.raises(ValueError, match=r'repeat: repeats must have 1 or 2 entries \(the length '
                                         r'of axis 1 of x\), but got 3'):
        F.repeat(numpy.zeros((3, 2), numpy.float32), (1, 2, 3), 1)


@pytest.mark.parametrize('repeats, axis, match', [
    ('a', None, 'repeat: repeats must be an int or a tuple of ints'),
    ([1, 2], None, 'repeat: repeats must be an int or a tuple of ints'),
    (1, 'a', 'repeat: axis must be an int, but got str'),
    (1, True, 'repeat: axis must be an int, but got bool'),
])
def test_repeat_rejects_bad_types(repeats, axis, match):
    with pytest.raises(TypeError, match=match):
        F.repeat(numpy.zeros(2, numpy.float32), repeats, axis)


def test_repeat_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'repeat: axis must be in \[-1, 1\)'):
        F.repeat(numpy.zeros(2, numpy.float32), 2, 1)
