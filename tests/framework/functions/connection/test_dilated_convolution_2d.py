import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, W, b, stride, pad, dilate, cover_all):
    """Dilated convolution as a sum over the kernel taps of strided slices of the padded
    images, each multiplied by one tap of every filter."""
    n, c, h, w = x.shape
    o, _, kh, kw = W.shape
    out_h = (h + 2 * pad - (kh - 1) * dilate - 1 + (stride - 1) * cover_all) // stride + 1
    out_w = (w + 2 * pad - (kw - 1) * dilate - 1 + (stride - 1) * cover_all) // stride + 1
    padded = numpy.pad(x.astype(numpy.float64),
                       ((0, 0), (0, 0), (pad, pad + stride), (pad, pad + stride)))
    y = numpy.zeros((n, o, out_h, out_w))
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i * dilate::stride, j * dilate::stride][:, :, :out_h, :out_w]
            y += numpy.einsum('nchw,oc->nohw', window, W[:, :, i, j].astype(numpy.float64))
    return y if b is None else y + b.reshape(1, o, 1, 1)


# x shape, W shape, stride, pad, dilate, cover_all
_CASES = [
    ((2, 3, 7, 6), (2, 3, 3, 3), 1, 2, 2, False),
    ((1, 2, 9, 8), (3, 2, 2, 3), 2, 1, 3, True),
    ((2, 2, 5, 5), (2, 2, 3, 3), 1, 0, 1, False),
]


class TestDilatedConvolution2D(FunctionTestCase):
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
        return x, W, numpy.random.uniform(-1, 1, W_shape[0]).astype(self.dtype)

    def forward(self, inputs, device):
        stride, pad, dilate, cover_all = self.case[2:]
        # Chainer's positional order: stride, pad, dilate, cover_all.
        return F.dilated_convolution_2d(*inputs[:2], inputs[2] if len(inputs) == 3 else None,
                                        stride, pad, dilate, cover_all),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


def test_rejects_bad_arguments():
    x = numpy.zeros((1, 3, 5, 5), numpy.float32)
    with pytest.raises(ValueError, match=r'dilated_convolution_2d: x of shape \(1, 3, 5, 5\) '
                                         r'has 3 channels, but W of shape \(2, 2, 3, 3\)'):
        F.dilated_convolution_2d(x, numpy.zeros((2, 2, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match='dilated_convolution_2d: the windows .* do not fit'):
        F.dilated_convolution_2d(x, numpy.zeros((2, 3, 3, 3), numpy.float32), dilate=3)
    with pytest.raises(ValueError, match='dilated_convolution_2d: dilate must be positive'):
        F.dilated_convolution_2d(x, numpy.zeros((2, 3, 3, 3), numpy.float32), dilate=0)
