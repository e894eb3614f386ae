import numpy
import pytest

import framework
import framework.functions as F
from framework import Variable, grad
from framework.functions.connection import _kernels
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _reference(x, W, b, stride, pad, cover_all, dilate, groups):
    """Convolution as an einsum over the sliding windows of the padded images."""
    (sy, sx), (ph, pw), (dy, dx) = _pair(stride), _pair(pad), _pair(dilate)
    n, c, h, w = x.shape
    o, cg, kh, kw = W.shape
    span_h, span_w = (kh - 1) * dy + 1, (kw - 1) * dx + 1
    out_h = (h + 2 * ph - span_h + (sy - 1) * cover_all) // sy + 1
    out_w = (w + 2 * pw - span_w + (sx - 1) * cover_all) // sx + 1
    padded = numpy.pad(x.astype(numpy.float64), ((0, 0), (0, 0), (ph, ph + sy), (pw, pw + sx)))
    windows = numpy.lib.stride_tricks.sliding_window_view(padded, (span_h, span_w), (2, 3))
    windows = windows[:, :, ::sy, ::sx, ::dy, ::dx][:, :, :out_h, :out_w]
    windows = windows.reshape(n, groups, cg, out_h, out_w, kh, kw)
    weights = W.astype(numpy.float64).reshape(groups, o // groups, cg, kh, kw)
    y = numpy.einsum('ngcyxij,gocij->ngoyx', windows, weights).reshape(n, o, out_h, out_w)
    return y if b is None else y + b.reshape(1, o, 1, 1)


# x shape, W shape, stride, pad, cover_all, dilate, groups
_CASES = [
    ((2, 3, 5, 4), (2, 3, 3, 3), 1, 1, False, 1, 1),
    ((1, 3, 9, 8), (4, 3, 7, 7), 2, 3, False, 1, 1),
    ((2, 3, 6, 7), (2, 3, 3, 2), (2, 3), (1, 0), True, 1, 1),
    ((2, 4, 6, 6), (6, 4, 1, 1), 1, 0, False, 1, 1),
    ((2, 4, 6, 5), (6, 4, 1, 1), 2, 0, False, 1, 1),
    ((1, 2, 8, 7), (3, 2, 3, 2), 1, (2, 1), False, (2, 3), 1),
    ((2, 6, 5, 5), (4, 3, 3, 3), 2, 1, True, 1, 2),
    ((1, 4, 5, 6), (4, 1, 3, 3), 1, 1, False, 1, 4),
]


class TestConvolution2D(FunctionTestCase):
    params = (product({'case': _CASES, 'nobias': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'case': _CASES[:1], 'nobias': [True],
                         'dtypes': [(numpy.float16, numpy.float32),
                                    (numpy.float32, numpy.float64)]}))

    @property
    def _dtypes(self):
        return getattr(self, 'dtypes', (self.dtype, self.dtype))

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if numpy.float16 in self._dtypes else {}

    @property
    def check_backward_options(self):
        return {'atol': 5e-2, 'rtol': 5e-2} if numpy.float16 in self._dtypes else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x_shape, W_shape = self.case[:2]
        x = numpy.random.uniform(-1, 1, x_shape).astype(self._dtypes[0])
        W = numpy.random.uniform(-1, 1, W_shape).astype(self._dtypes[1])
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, W_shape[0]).astype(self._dtypes[0])

    def forward(self, inputs, device):
        stride, pad, cover_all, dilate, groups = self.case[2:]
        return F.convolution_2d(*inputs, stride=stride, pad=pad, cover_all=cover_all,
                                dilate=dilate, groups=groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


def test_chainer_docstring_example_shapes():
    x = numpy.random.uniform(0, 1, (10, 3, 30, 40)).astype(numpy.float32)
    W = numpy.random.uniform(0, 1, (1, 3, 10, 10)).astype(numpy.float32)
    b = numpy.random.uniform(0, 1, (1,)).astype(numpy.float32)
    assert F.convolution_2d(x, W, b, stride=(5, 7), pad=(5, 5)).shape == (10, 1, 7, 6)
    assert F.convolution_2d(x, W, b, stride=(5, 7), pad=(5, 5), cover_all=True).shape == \
        (10, 1, 7, 7)


def test_arguments_are_chainers():
    x = numpy.random.uniform(-1, 1, (1, 2, 5, 5)).astype(numpy.float32)
    W = numpy.random.uniform(-1, 1, (2, 1, 3, 3)).astype(numpy.float32)
    y = F.convolution_2d(x, W, None, 2, 1, True, dilate=2, groups=2)
    numpy.testing.assert_allclose(y.array, _reference(x, W, None, 2, 1, True, 2, 2), rtol=1e-5)
    with pytest.raises(TypeError):
        F.convolution_2d(x, W, None, 2, 1, True, 2)


def test_weight_gradient_of_a_resnet_stem_matches_the_reference():
    # The gradients are the adjoints of the forward map: check one against its definition.
    x = numpy.random.uniform(-1, 1, (2, 3, 16, 16))
    W = numpy.random.uniform(-1, 1, (4, 3, 7, 7))
    gy = numpy.random.uniform(-1, 1, (2, 4, 8, 8))
    xv, Wv = Variable(x), Variable(W)
    gx, gW = grad([F.convolution_2d(xv, Wv, stride=2, pad=3)], [xv, Wv], [gy])
    rng = numpy.random.RandomState(0)
    dx, dW = rng.normal(size=x.shape), rng.normal(size=W.shape)
    lhs = float((gx.array * dx).sum() + (gW.array * dW).sum())
    rhs = float((gy * (_reference(x + dx, W + dW, None, 2, 3, False, 1, 1)
                       - _reference(x, W, None, 2, 3, False, 1, 1)
                       - _reference(dx, dW, None, 2, 3, False, 1, 1))).sum())
    assert lhs == pytest.approx(rhs, rel=1e-9)


@pytest.mark.parametrize('x_shape, W_shape, kwargs, error, message', [
    ((2, 5, 6, 6), (4, 4, 3, 3), {}, ValueError,
     r'convolution_2d: x of shape \(2, 5, 6, 6\) has 5 channels, but W of shape '
     r'\(4, 4, 3, 3\) with groups=1 expects W.shape\[1\] \* groups = 4'),
    ((2, 6, 6, 6), (4, 2, 3, 3), {'groups': 4}, ValueError,
     r'convolution_2d: groups=4 must divide the number of channels of x, 6 '
     r'\(x of shape \(2, 6, 6, 6\)\)'),
    ((2, 3, 6, 6, 6), (4, 3, 3, 3), {}, ValueError,
     r'convolution_2d: x must be 4-dimensional, but got shape \(2, 3, 6, 6, 6\)'),
    ((2, 3, 6, 6), (4, 3, 3), {}, ValueError,
     r'convolution_2d: W must be 4-dimensional, but got shape \(4, 3, 3\)'),
    ((2, 3, 4, 4), (4, 3, 3, 3), {'dilate': 2}, ValueError,
     r'convolution_2d: the windows \(ksize \(3, 3\), stride \(1, 1\), pad \(0, 0\), dilate '
     r'\(2, 2\), cover_all=False\) do not fit in the spatial size \(4, 4\) of x'),
    ((2, 3, 6, 6), (4, 3, 3, 3), {'pad': -1}, ValueError,
     'convolution_2d: pad must be non-negative, but got -1'),
    ((2, 3, 6, 6), (4, 3, 3, 3), {'stride': 0}, ValueError,
     'convolution_2d: stride must be positive, but got 0'),
    ((2, 3, 6, 6), (4, 3, 3, 3), {'stride': 1.5}, TypeError,
     'convolution_2d: stride must be an int or a sequence of 2 ints, but got 1.5'),
])
def test_rejects_bad_arguments(x_shape, W_shape, kwargs, error, message):
    with pytest.raises(error, match=message):
        F.convolution_2d(numpy.zeros(x_shape, numpy.float32),
                         numpy.zeros(W_shape, numpy.float32), **kwargs)


def test_rejects_bias_of_another_dtype():
    x = numpy.zeros((1, 2, 4, 4), numpy.float32)
    W = numpy.zeros((3, 2, 2, 2), numpy.float32)
    with pytest.raises(TypeError, match=r'convolution_2d: b must have the dtype of x '
                                        r'\(float32\), but got dtype float64'):
        F.convolution_2d(x, W, numpy.zeros(3, numpy.float64))


def test_outputs_do_not_share_the_scratch_columns():
    # Column matrices live in a reused buffer: outputs must never be views of it.
    rng = numpy.random.RandomState(3)
    x1, W1 = rng.uniform(-1, 1, (1, 2, 5, 5)), rng.uniform(-1, 1, (3, 2, 3, 3))
    x2, W2 = rng.uniform(-1, 1, (2, 4, 9, 9)), rng.uniform(-1, 1, (3, 4, 3, 3))
    y1 = F.convolution_2d(x1, W1, pad=1)
    y2 = F.convolution_2d(x2, W2, pad=1)
    y3 = F.deconvolution_2d(x1, W1.transpose(1, 0, 2, 3), stride=2)
    saved = y3.array.copy()
    F.convolution_2d(x1, W1, stride=2)
    F.deconvolution_2d(x2, W2.transpose(1, 0, 2, 3), stride=2)
    numpy.testing.assert_allclose(y1.array, _reference(x1, W1, None, 1, 1, False, 1, 1))
    numpy.testing.assert_allclose(y2.array, _reference(x2, W2, None, 1, 1, False, 1, 1))
    numpy.testing.assert_array_equal(y3.array, saved)


@pytest.mark.parametrize('groups', [1, 2])
def test_pointwise_on_channel_major_images(groups):
    # Convolutions over several images return them channel by channel ((C, N, H, W) memory);
    # a following 1x1 convolution reads them as its columns without a copy.
    rng = numpy.random.RandomState(3)
    x = numpy.moveaxis(rng.randn(4, 3, 5, 6).astype(numpy.float32), 0, 1)
    W = rng.randn(6, 4 // groups, 1, 1).astype(numpy.float32)
    y = F.convolution_2d(x, W, groups=groups)
    numpy.testing.assert_allclose(y.array, _reference(x, W, None, 1, 0, False, 1, groups),
                                  rtol=1e-5, atol=1e-5)
    xv, Wv = Variable(x), Variable(W)
    gW, = grad([F.sum(F.convolution_2d(xv, Wv, groups=groups) ** 2)], [Wv])
    gW_contiguous, = grad([F.sum(F.convolution_2d(numpy.ascontiguousarray(x), Wv,
                                                  groups=groups) ** 2)], [Wv])
    numpy.testing.assert_allclose(gW.array, gW_contiguous.array, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('x_shape, W_shape', [((2, 4, 5, 5), (6, 4, 3, 3)),
                                              ((2, 4, 5, 5), (6, 4, 1, 1))])
def test_weight_gradient_is_an_array_of_its_own(x_shape, W_shape):
    # A gradient that is a view is copied before the optimizer gets it (optimizers update
    # gradients in place): the kernel makes the weight gradient in an array of W's shape.
    rng = numpy.random.RandomState(0)
    x = rng.randn(*x_shape).astype(numpy.float32)
    W = rng.randn(*W_shape).astype(numpy.float32)
    gy = F.convolution_2d(x, W).array
    gW = _kernels.convolve_grad_weight(x, gy, W_shape[2:], (1, 1), (0, 0), (False, False),
                                       (1, 1), 1, numpy.float32)
    assert gW.base is None and gW.shape == W_shape
    Wv = Variable(W)
    expected, = grad([F.sum(F.convolution_2d(x, Wv) * gy)], [Wv])
    numpy.testing.assert_allclose(gW, expected.array, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize('ksize, stride, groups', [(1, 1, 1), (3, 1, 1), (3, 2, 1), (1, 2, 3),
                                                   (3, 1, 3)])
def test_an_empty_batch_gives_empty_outputs_and_zero_weight_gradients(ksize, stride, groups):
    # No image (a region head with no region): the shapes follow, the weight's gradient is 0.
    x = framework.Variable(numpy.zeros((0, 3, 7, 6), numpy.float32))
    W = framework.Variable(numpy.ones((6, 3 // groups, ksize, ksize), numpy.float32))
    b = framework.Variable(numpy.ones(6, numpy.float32))
    y = F.convolution_2d(x, W, b, stride=stride, pad=ksize // 2, groups=groups)
    pad = ksize // 2
    out = (7 + 2 * pad - ksize) // stride + 1, (6 + 2 * pad - ksize) // stride + 1
    assert y.shape == (0, 6) + out and y.dtype == numpy.float32
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    assert x.grad.shape == x.shape
    numpy.testing.assert_array_equal(W.grad, numpy.zeros_like(W.array))
    numpy.testing.assert_array_equal(b.grad, numpy.zeros(6, numpy.float32))
