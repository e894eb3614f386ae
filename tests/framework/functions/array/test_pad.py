import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _copy_mode_gradient(shape, pad_width, mode, gy):
    """The gradient of numpy.pad in a copying mode, one input element at a time."""
    gx = numpy.zeros(shape)
    for index in numpy.ndindex(*shape):
        e = numpy.zeros(shape)
        e[index] = 1
        gx[index] = (numpy.pad(e, pad_width, mode=mode) * gy).sum()
    return gx


class TestPadConstant(FunctionTestCase):
    params = product({
        'case': [
            ((), 1, {}),
            ((2, 3), 0, {}),
            ((2, 3), 1, {}),
            ((2, 3), (1, 2), {'constant_values': (1, 2)}),
            ((2, 3), ((1, 2), (3, 4)), {'constant_values': ((1, 2), (3, 4))}),
            ((2, 3, 2), ((2, 5), (1, 2), (0, 7)), {'constant_values': 0.5}),
            ((0, 3), ((1, 1), (2, 0)), {'constant_values': -1}),
        ],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        shape, _, _ = self.case
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        _, pad_width, keywords = self.case
        return F.pad(inputs[0], pad_width, 'constant', **keywords),

    def forward_expected(self, inputs):
        _, pad_width, keywords = self.case
        return numpy.pad(inputs[0], pad_width, mode='constant', **keywords),


class TestPadCopyModes(FunctionTestCase):
    params = product({
        'mode': ['edge', 'reflect', 'symmetric', 'wrap'],
        'case': [((3, 4), ((2, 1), (0, 3))), ((2,), (5, 4)), ((1, 3), 2)],
        'dtype': [numpy.float32, numpy.float64],
    })

    def generate_inputs(self):
        shape, _ = self.case
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        _, pad_width = self.case
        return F.pad(inputs[0], pad_width, self.mode),

    def forward_expected(self, inputs):
        _, pad_width = self.case
        return numpy.pad(inputs[0], pad_width, mode=self.mode),

    def backward_expected(self, inputs, grad_outputs):
        shape, pad_width = self.case
        gx = _copy_mode_gradient(shape, pad_width, self.mode, grad_outputs[0].astype(numpy.float64))
        return gx.astype(self.dtype),


def test_pad_keeps_dtype_with_int_constant():
    y = F.pad(numpy.zeros((2,), numpy.float16), 1, 'constant', constant_values=3)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [3, 0, 0, 3])


def test_pad_gradient_of_constant_mode_is_the_crop():
    x = Variable(numpy.zeros((2, 2), numpy.float32))
    y = F.pad(x, ((1, 0), (0, 2)), 'constant', constant_values=7)
    y.grad = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[4, 5], [8, 9]])


@pytest.mark.parametrize('args, kwargs, error, match', [
    ((numpy.zeros(3, numpy.int32), 1, 'constant'), {}, TypeError,
     'pad: x must be a floating-point array, but got dtype int32'),
    (([1.0, 2.0], 1, 'constant'), {}, TypeError, 'pad: x must be a Variable or an array'),
    ((numpy.zeros(3), 1, 'mean'), {}, ValueError, "pad: mode must be one of .* but got 'mean'"),
    ((numpy.zeros(3), -1, 'constant'), {}, ValueError, 'pad: pad_width must be non-negative'),
    ((numpy.zeros(3), 1.5, 'constant'), {}, TypeError, 'pad: pad_width must be integers'),
    ((numpy.zeros((2, 3)), ((1, 2), (3, 4), (5, 6)), 'constant'), {}, ValueError,
     r'pad: pad_width must be .* one pair per axis of x \(2 axes\)'),
    ((numpy.zeros(3), 1, 'constant'), {'constant_values': (1, 2, 3)}, ValueError,
     'pad: constant_values must be'),
    ((numpy.zeros(3), 1, 'edge'), {'constant_values': 1}, TypeError,
     "pad: unexpected keyword arguments \\['constant_values'\\] for mode 'edge'"),
    ((numpy.zeros(3), 1, 'reflect'), {'reflect_type': 'odd'}, ValueError,
     "pad: reflect_type must be 'even'"),
    ((numpy.zeros((0, 2)), 1, 'wrap'), {}, ValueError, 'pad: an empty axis of x'),
])
def test_pad_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        F.pad(*args, **kwargs)
