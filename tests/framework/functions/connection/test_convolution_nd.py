import itertools

import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.functions.connection import _kernels
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, W, b, stride, pad, cover_all, dilate, groups):
    """Convolution by its definition: a loop over output positions and kernel offsets."""
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n_spatial = x.ndim - 2
    stride, pad, dilate = ((v,) * n_spatial if isinstance(v, int) else v
                           for v in (stride, pad, dilate))
    n, c = x.shape[:2]
    o, cg = W.shape[:2]
    og = o // groups
    ksize = W.shape[2:]
    out = [(size + 2 * p - (k - 1) * d - 1 + (s - 1) * cover_all) // s + 1
           for size, k, s, p, d in zip(x.shape[2:], ksize, stride, pad, dilate)]
    padded = numpy.zeros((n, c) + tuple(size + 2 * p + s for size, p, s in
                                        zip(x.shape[2:], pad, stride)))
    padded[(slice(None), slice(None)) + tuple(slice(p, p + size) for p, size in
                                              zip(pad, x.shape[2:]))] = x
    y = numpy.zeros((n, o) + tuple(out))
    for i in itertools.product(*(range(v) for v in out)):
        for k in itertools.product(*(range(v) for v in ksize)):
            src = tuple(ii * s + kk * d for ii, kk, s, d in zip(i, k, stride, dilate))
            for g in range(groups):
                patch = padded[(slice(None), slice(g * cg, (g + 1) * cg)) + src]
                weight = W[(slice(g * og, (g + 1) * og), slice(None)) + k]
                y[(slice(None), slice(g * og, (g + 1) * og)) + i] += patch @ weight.T
    if b is not None:
        y += b.reshape((1, o) + (1,) * n_spatial)
    return y


# x shape, W shape, stride, pad, cover_all, dilate, groups
_CASES = [
    ((2, 3, 7), (4, 3, 3), 2, 1, False, 1, 1),
    ((2, 4, 9), (6, 2, 3), 1, 2, False, 2, 2),
    ((2, 3, 5, 6), (4, 3, 3, 2), (2, 1), (1, 0), True, 1, 1),
    ((2, 4, 5, 6), (3, 4, 1, 1), 2, 0, False, 1, 1),
    ((1, 4, 6, 5), (3, 4, 1, 1), 2, 0, True, 1, 1),
    ((1, 6, 6, 6), (3, 2, 2, 2), 1, 1, False, 2, 3),
    ((1, 2, 4, 5, 4), (3, 2, 2, 3, 2), (1, 2, 1), (1, 0, 1), False, 1, 1),
    ((2, 4, 3, 4, 3), (4, 2, 2, 2, 2), 2, 0, True, 1, 2),
]


class TestConvolutionND(FunctionTestCase):
    params = (product({'case': _CASES, 'nobias': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'case': _CASES[2:4], 'nobias': [False],
                         'dtypes': [(numpy.float16, numpy.float32, numpy.float64),
                                    (numpy.float64, numpy.float16, numpy.float32)]}))

    @property
    def _dtypes(self):
        return getattr(self, 'dtypes', (self.dtype,) * 3)

    @property
    def _half(self):
        return numpy.float16 in self._dtypes

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self._half else {}

    @property
    def check_backward_options(self):
        return {'atol': 5e-2, 'rtol': 5e-2} if self._half else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x_shape, W_shape = self.case[:2]
        x_dtype, W_dtype, b_dtype = self._dtypes
        x = numpy.random.uniform(-1, 1, x_shape).astype(x_dtype)
        W = numpy.random.uniform(-1, 1, W_shape).astype(W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, W_shape[0]).astype(b_dtype)

    def forward(self, inputs, device):
        stride, pad, cover_all, dilate, groups = self.case[2:]
        return F.convolution_nd(*inputs, stride=stride, pad=pad, cover_all=cover_all,
                                dilate=dilate, groups=groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


@pytest.mark.parametrize('function, x_shape, W_shape', [
    (F.convolution_1d, (2, 3, 8), (4, 3, 3)),
    (F.convolution_3d, (1, 2, 4, 3, 5), (3, 2, 2, 2, 3)),
])
def test_1d_and_3d_match_the_reference(function, x_shape, W_shape):
    x = numpy.random.uniform(-1, 1, x_shape)
    W = numpy.random.uniform(-1, 1, W_shape)
    b = numpy.random.uniform(-1, 1, W_shape[0])
    y = function(x, W, b, stride=2, pad=1, cover_all=True)
    numpy.testing.assert_allclose(y.array, _reference(x, W, b, 2, 1, True, 1, 1), rtol=1e-12)


def _forbid(monkeypatch, name):
    def fail(*args):
        raise AssertionError(f'{name} was called')
    monkeypatch.setattr(_kernels, name, fail)


def test_only_asked_gradients_are_computed(monkeypatch):
    x = Variable(numpy.random.uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32))
    W = Variable(numpy.random.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32))
    b = Variable(numpy.zeros(4, numpy.float32))
    y = F.convolution_nd(x, W, b, pad=1)
    assert len(y.creator_node._retained_input_data) == 2
    with monkeypatch.context() as patch:
        _forbid(patch, 'deconvolve')
        gW, = grad([F.sum(y)], [W], retain_graph=True)
    assert gW.shape == W.shape
    _forbid(monkeypatch, 'convolve_grad_weight')
    gx, gb = grad([F.sum(y)], [x, b])
    assert gx.shape == x.shape
    numpy.testing.assert_array_equal(gb.array, [50, 50, 50, 50])


def test_bias_of_another_float_dtype_gets_its_dtype_back():
    x = Variable(numpy.random.uniform(-1, 1, (1, 2, 4)).astype(numpy.float32))
    W = Variable(numpy.random.uniform(-1, 1, (3, 2, 2)).astype(numpy.float32))
    b = Variable(numpy.zeros(3, numpy.float64))
    y = F.convolution_nd(x, W, b)
    assert y.dtype == numpy.float32
    gb, = grad([F.sum(y)], [b])
    assert gb.dtype == numpy.float64
    numpy.testing.assert_array_equal(gb.array, [3, 3, 3])


@pytest.mark.parametrize('function, x_shape, W_shape, kwargs, message', [
    (F.convolution_nd, (2, 3), (4, 3), {},
     r'convolution_nd: x must have at least 3 dimensions, but got shape \(2, 3\)'),
    (F.convolution_nd, (2, 3, 5), (4, 3, 2, 2), {},
     r'convolution_nd: W must be 3-dimensional, but got shape \(4, 3, 2, 2\)'),
    (F.convolution_1d, (2, 3, 5, 5), (4, 3, 2, 2), {},
     r'convolution_1d: x must be 3-dimensional, but got shape \(2, 3, 5, 5\)'),
    (F.convolution_3d, (2, 3, 5, 5), (4, 3, 2, 2), {},
     r'convolution_3d: x must be 5-dimensional'),
    (F.convolution_nd, (2, 6, 5), (4, 2, 3), {'groups': 2},
     r'convolution_nd: x of shape \(2, 6, 5\) has 6 channels, but W of shape \(4, 2, 3\) with '
     r'groups=2 expects W.shape\[1\] \* groups = 4'),
    (F.convolution_nd, (2, 6, 5, 5, 5), (3, 3, 1, 1, 1), {'groups': 2},
     r'convolution_nd: groups=2 must divide the number of output channels, 3'),
    (F.convolution_nd, (2, 4, 5), (4, 3, 3), {'stride': (1, 2)},
     r'convolution_nd: stride must be an int or a sequence of 1 ints'),
    (F.convolution_nd, (2, 3, 2), (4, 3, 3), {},
     r'convolution_nd: the windows \(ksize \(3,\), stride \(1,\), pad \(0,\), dilate \(1,\), '
     r'cover_all=False\) do not fit in the spatial size \(2,\) of x: the output size would '
     r'be \(0,\)'),
])
def test_rejects_bad_shapes(function, x_shape, W_shape, kwargs, message):
    with pytest.raises(ValueError, match=message):
        function(numpy.zeros(x_shape, numpy.float32), numpy.zeros(W_shape, numpy.float32),
                 **kwargs)


def test_rejects_bad_dtypes_and_bias():
    x = numpy.zeros((1, 2, 4), numpy.float32)
    W = numpy.zeros((3, 2, 2), numpy.float32)
    with pytest.raises(TypeError, match='convolution_nd: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.convolution_nd(x.astype(numpy.int32), W)
    with pytest.raises(TypeError, match='convolution_nd: W must be a floating-point array'):
        F.convolution_nd(x, W.astype(numpy.int64))
    with pytest.raises(ValueError, match=r'convolution_nd: b must have shape \(3,\), '
                                         r'but got shape \(2,\)'):
        F.convolution_nd(x, W, numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match='convolution_nd: groups must be positive'):
        F.convolution_nd(x, W, groups=0)
