import numpy
import pytest

import framework
import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _reference(x, W, b, stride, pad, outsize, dilate, groups):
    """Transposed convolution as a full convolution: spread the input ``stride`` apart, pad
    it with the kernel's span, and correlate with the flipped, channel-transposed kernel."""
    (sy, sx), (ph, pw), (dy, dx) = _pair(stride), _pair(pad), _pair(dilate)
    n, c, h, w = x.shape
    cg = c // groups
    og, kh, kw = W.shape[1:]
    span_h, span_w = (kh - 1) * dy + 1, (kw - 1) * dx + 1
    if outsize is None:
        outsize = (sy * (h - 1) + span_h - 2 * ph, sx * (w - 1) + span_w - 2 * pw)
    spread = numpy.zeros((n, c, sy * (h - 1) + 1, sx * (w - 1) + 1))
    spread[:, :, ::sy, ::sx] = x
    full_h = max(outsize[0] + 2 * ph, spread.shape[2] + span_h - 1)
    full_w = max(outsize[1] + 2 * pw, spread.shape[3] + span_w - 1)
    padded = numpy.zeros((n, c, full_h + span_h - 1, full_w + span_w - 1))
    padded[:, :, span_h - 1:span_h - 1 + spread.shape[2],
           span_w - 1:span_w - 1 + spread.shape[3]] = spread
    flipped = W.astype(numpy.float64)[:, :, ::-1, ::-1]
    y = numpy.zeros((n, og * groups, full_h, full_w))
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i * dy:i * dy + full_h, j * dx:j * dx + full_w]
            for g in range(groups):
                y[:, g * og:(g + 1) * og] += numpy.einsum(
                    'nchw,co->nohw', window[:, g * cg:(g + 1) * cg],
                    flipped[g * cg:(g + 1) * cg, :, i, j])
    y = y[:, :, ph:ph + outsize[0], pw:pw + outsize[1]]
    return y if b is None else y + b.reshape(1, -1, 1, 1)


# x shape, W shape, stride, pad, outsize, dilate, groups
_CASES = [
    ((2, 3, 3, 4), (3, 2, 3, 3), 1, 1, None, 1, 1),
    ((1, 3, 3, 3), (3, 2, 4, 4), 2, 1, None, 1, 1),
    ((2, 2, 3, 2), (2, 3, 3, 2), (2, 3), (0, 1), (8, 5), 1, 1),
    ((1, 4, 3, 3), (4, 2, 1, 1), 2, 0, None, 1, 1),
    ((1, 2, 4, 3), (2, 2, 2, 3), 1, (1, 2), None, (2, 1), 1),
    ((2, 4, 3, 3), (4, 1, 3, 3), 2, 1, (6, 6), 1, 2),
]


class TestDeconvolution2D(FunctionTestCase):
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
        b_size = W_shape[1] * self.case[-1]
        return x, W, numpy.random.uniform(-1, 1, b_size).astype(self.dtype)

    def forward(self, inputs, device):
        stride, pad, outsize, dilate, groups = self.case[2:]
        return F.deconvolution_2d(*inputs, stride=stride, pad=pad, outsize=outsize,
                                  dilate=dilate, groups=groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


def test_chainer_docstring_example_shapes():
    x = numpy.random.uniform(0, 1, (10, 1, 5, 10)).astype(numpy.float32)
    W = numpy.random.uniform(0, 1, (1, 3, 10, 10)).astype(numpy.float32)
    b = numpy.random.uniform(0, 1, 3).astype(numpy.float32)
    assert F.deconvolution_2d(x, W, b, stride=(5, 5), pad=(5, 5)).shape == (10, 3, 20, 45)


def test_outsize_entry_none_is_inferred():
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 3))
    W = numpy.random.uniform(-1, 1, (2, 1, 3, 3))
    y = F.deconvolution_2d(x, W, stride=2, outsize=(None, 8))
    assert y.shape == (1, 1, 7, 8)
    numpy.testing.assert_allclose(y.array, _reference(x, W, None, 2, 0, (7, 8), 1, 1),
                                  rtol=1e-12)


@pytest.mark.parametrize('x_shape, W_shape, kwargs, error, message', [
    ((1, 3, 4, 4), (2, 2, 3, 3), {}, ValueError,
     r'deconvolution_2d: x of shape \(1, 3, 4, 4\) has 3 channels, but W of shape '
     r'\(2, 2, 3, 3\) expects W.shape\[0\] = 2'),
    ((1, 3, 4, 4), (3, 2, 3, 3), {'outsize': (5, 6)}, ValueError,
     r'deconvolution_2d: outsize \(5, 6\) is impossible for x of shape \(1, 3, 4, 4\) '
     r'\(ksize \(3, 3\), stride \(1, 1\), pad \(0, 0\), dilate \(1, 1\)\): along spatial axis '
     r'0, an output of size 5 is the transposed convolution of an input of size 3, not 4'),
    ((1, 3, 4, 4), (3, 2, 3, 3), {'groups': 2}, ValueError,
     'deconvolution_2d: groups=2 must divide the number of channels of x, 3'),
    ((1, 3, 4), (3, 2, 3), {}, ValueError,
     r'deconvolution_2d: x must be 4-dimensional, but got shape \(1, 3, 4\)'),
])
def test_rejects_bad_arguments(x_shape, W_shape, kwargs, error, message):
    with pytest.raises(error, match=message):
        F.deconvolution_2d(numpy.zeros(x_shape, numpy.float32),
                           numpy.zeros(W_shape, numpy.float32), **kwargs)


def test_rejects_bias_of_another_dtype():
    with pytest.raises(TypeError, match=r'deconvolution_2d: b must have the dtype of x '
                                        r'\(float32\), but got dtype float16'):
        F.deconvolution_2d(numpy.zeros((1, 2, 3, 3), numpy.float32),
                           numpy.zeros((2, 3, 2, 2), numpy.float32),
                           numpy.zeros(3, numpy.float16))


@pytest.mark.parametrize('ksize, stride, groups', [(1, 1, 1), (3, 1, 1), (2, 2, 1), (3, 2, 3)])
def test_an_empty_batch_gives_empty_outputs_and_zero_weight_gradients(ksize, stride, groups):
    x = framework.Variable(numpy.zeros((0, 3, 5, 4), numpy.float32))
    W = framework.Variable(numpy.ones((3, 6 // groups, ksize, ksize), numpy.float32))
    y = F.deconvolution_2d(x, W, stride=stride, groups=groups)
    assert y.shape == (0, 6, stride * 4 + ksize, stride * 3 + ksize) and y.dtype == numpy.float32
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    assert x.grad.shape == x.shape
    numpy.testing.assert_array_equal(W.grad, numpy.zeros_like(W.array))
