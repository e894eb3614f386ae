import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, W, b, stride, pad):
    """Depthwise convolution channel by channel: output channel ``c * c_M + m`` correlates
    input channel ``c`` with ``W[m, c]``."""
    n, c, h, w = x.shape
    multiplier, _, kh, kw = W.shape
    out_h = (h + 2 * pad - kh) // stride + 1
    out_w = (w + 2 * pad - kw) // stride + 1
    padded = numpy.pad(x.astype(numpy.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    y = numpy.zeros((n, c * multiplier, out_h, out_w))
    for ci in range(c):
        for m in range(multiplier):
            for i in range(kh):
                for j in range(kw):
                    window = padded[:, ci, i:i + (out_h - 1) * stride + 1:stride,
                                    j:j + (out_w - 1) * stride + 1:stride]
                    y[:, ci * multiplier + m] += W[m, ci, i, j] * window
    return y if b is None else y + b.reshape(1, -1, 1, 1)


# x shape, W shape, stride, pad
_CASES = [
    ((2, 3, 5, 5), (2, 3, 3, 3), 1, 1),
    ((1, 4, 6, 7), (1, 4, 3, 2), 2, 0),
    ((2, 2, 4, 4), (3, 2, 1, 1), 1, 0),
]


class TestDepthwiseConvolution2D(FunctionTestCase):
    params = product({'case': _CASES, 'nobias': [False, True], 'dtype': FLOAT_DTYPES})

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    @property
    def check_backward_options(self):
        return {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x_shape, W_shape = self.case[:2]
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, W_shape).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, W_shape[0] * W_shape[1]).astype(self.dtype)

    def forward(self, inputs, device):
        stride, pad = self.case[2:]
        return F.depthwise_convolution_2d(*inputs, stride=stride, pad=pad),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


def test_chainer_docstring_example_shape():
    x = numpy.random.uniform(0, 1, (2, 3, 4, 7))
    W = numpy.random.uniform(0, 1, (2, 3, 3, 3))
    b = numpy.random.uniform(0, 1, (6,))
    assert F.depthwise_convolution_2d(x, W, b).shape == (2, 6, 2, 5)


@pytest.mark.parametrize('x_shape, W_shape, b_size, message', [
    ((1, 3, 5, 5), (2, 4, 3, 3), None,
     r'depthwise_convolution_2d: x of shape \(1, 3, 5, 5\) has 3 channels, but W of shape '
     r'\(2, 4, 3, 3\) expects W.shape\[1\] = 4'),
    ((1, 3, 5, 5), (2, 3, 3, 3), 3,
     r'depthwise_convolution_2d: b must have shape \(6,\), but got shape \(3,\)'),
    ((1, 3, 2, 5), (2, 3, 3, 3), None,
     r'depthwise_convolution_2d: the windows .* do not fit in the spatial size \(2, 5\)'),
    ((1, 3, 5), (2, 3, 3, 3), None,
     r'depthwise_convolution_2d: x must be 4-dimensional, but got shape \(1, 3, 5\)'),
])
def test_rejects_bad_arguments(x_shape, W_shape, b_size, message):
    b = None if b_size is None else numpy.zeros(b_size, numpy.float32)
    with pytest.raises(ValueError, match=message):
        F.depthwise_convolution_2d(numpy.zeros(x_shape, numpy.float32),
                                   numpy.zeros(W_shape, numpy.float32), b)
