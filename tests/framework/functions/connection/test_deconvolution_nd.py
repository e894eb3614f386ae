import itertools

import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _tuple(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _reference(x, W, b, stride, pad, outsize, dilate, groups):
    """Transposed convolution by its definition: every input element scatters its products
    with the kernel into the padded output."""
    n_spatial = x.ndim - 2
    stride, pad, dilate = (_tuple(v, n_spatial) for v in (stride, pad, dilate))
    n, c = x.shape[:2]
    cg = c // groups
    og = W.shape[1]
    ksize = W.shape[2:]
    if outsize is None:
        outsize = tuple(s * (size - 1) + (k - 1) * d + 1 - 2 * p for size, k, s, p, d in
                        zip(x.shape[2:], ksize, stride, pad, dilate))
    span = tuple(max(o + 2 * p, (size - 1) * s + (k - 1) * d + 1) for o, p, size, s, k, d in
                 zip(outsize, pad, x.shape[2:], stride, ksize, dilate))
    y = numpy.zeros((n, og * groups) + span)
    x64, W64 = x.astype(numpy.float64), W.astype(numpy.float64)
    for i in itertools.product(*(range(v) for v in x.shape[2:])):
        for k in itertools.product(*(range(v) for v in ksize)):
            dst = tuple(ii * s + kk * d for ii, kk, s, d in zip(i, k, stride, dilate))
            for g in range(groups):
                pixel = x64[(slice(None), slice(g * cg, (g + 1) * cg)) + i]
                weight = W64[(slice(g * cg, (g + 1) * cg), slice(None)) + k]
                y[(slice(None), slice(g * og, (g + 1) * og)) + dst] += pixel @ weight
    y = y[(slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(pad, outsize))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * n_spatial)
    return y


# x shape, W shape, stride, pad, outsize, dilate, groups
_CASES = [
    ((2, 3, 4), (3, 2, 3), 2, 1, None, 1, 1),
    ((2, 4, 5), (4, 3, 2), 1, 0, None, 2, 2),
    ((2, 2, 5), (2, 3, 1), 1, 1, None, 1, 1),
    ((1, 3, 3), (3, 2, 3), 2, 0, (8,), 1, 1),
    ((2, 3, 3, 4), (3, 2, 3, 2), (2, 1), (1, 0), None, 1, 1),
    ((1, 4, 3, 3), (4, 1, 1, 1), 1, 0, None, 1, 1),
    ((1, 4, 3, 3), (4, 2, 1, 1), 2, 0, (6, 5), 1, 2),
    ((1, 2, 3, 2, 3), (2, 3, 2, 2, 3), (1, 2, 2), (0, 1, 1), None, 1, 1),
    ((1, 4, 2, 3, 2), (4, 1, 2, 2, 2), 2, 0, (5, 6, 4), (1, 1, 2), 2),
]


class TestDeconvolutionND(FunctionTestCase):
    params = (product({'case': _CASES, 'nobias': [False, True], 'dtype': FLOAT_DTYPES})
              + product({'case': _CASES[3:4], 'nobias': [False],
                         'dtypes': [(numpy.float16, numpy.float32, numpy.float64),
                                    (numpy.float64, numpy.float16, numpy.float32)]}))

    @property
    def _dtypes(self):
        return getattr(self, 'dtypes', (self.dtype,) * 3)

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if numpy.float16 in self._dtypes else {}

    @property
    def check_backward_options(self):
        return {'atol': 5e-2, 'rtol': 5e-2} if numpy.float16 in self._dtypes else {}

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        x_shape, W_shape = self.case[:2]
        groups = self.case[-1]
        x_dtype, W_dtype, b_dtype = self._dtypes
        x = numpy.random.uniform(-1, 1, x_shape).astype(x_dtype)
        W = numpy.random.uniform(-1, 1, W_shape).astype(W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, W_shape[1] * groups).astype(b_dtype)

    def forward(self, inputs, device):
        stride, pad, outsize, dilate, groups = self.case[2:]
        return F.deconvolution_nd(*inputs, stride=stride, pad=pad, outsize=outsize,
                                  dilate=dilate, groups=groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return _reference(x, W, b, *self.case[2:]).astype(x.dtype),


@pytest.mark.parametrize('function, x_shape, W_shape', [
    (F.deconvolution_1d, (2, 3, 4), (3, 2, 3)),
    (F.deconvolution_3d, (1, 2, 2, 3, 2), (2, 3, 2, 2, 3)),
])
def test_1d_and_3d_match_the_reference(function, x_shape, W_shape):
    x = numpy.random.uniform(-1, 1, x_shape)
    W = numpy.random.uniform(-1, 1, W_shape)
    b = numpy.random.uniform(-1, 1, W_shape[1])
    y = function(x, W, b, stride=2, pad=1)
    numpy.testing.assert_allclose(y.array, _reference(x, W, b, 2, 1, None, 1, 1), rtol=1e-12)


def test_is_the_input_gradient_of_convolution():
    x = numpy.random.uniform(-1, 1, (2, 4, 7, 6))
    W = numpy.random.uniform(-1, 1, (6, 2, 3, 3))
    gy = numpy.random.uniform(-1, 1, (2, 6, 4, 3))
    xv = Variable(x)
    gx, = grad([F.convolution_nd(xv, W, stride=2, pad=1, cover_all=True, groups=2)], [xv], [gy])
    y = F.deconvolution_nd(gy, W, stride=2, pad=1, outsize=(7, 6), groups=2)
    numpy.testing.assert_allclose(y.array, gx.array, rtol=1e-12)


def test_only_asked_gradients():
    x = Variable(numpy.random.uniform(-1, 1, (1, 2, 3, 3)).astype(numpy.float32))
    W = Variable(numpy.random.uniform(-1, 1, (2, 3, 2, 2)).astype(numpy.float32))
    b = Variable(numpy.zeros(3, numpy.float64))
    y = F.deconvolution_nd(x, W, b)
    assert len(y.creator_node._retained_input_data) == 2
    gb, = grad([F.sum(y)], [b])
    assert gb.dtype == numpy.float64
    numpy.testing.assert_array_equal(gb.array, [16, 16, 16])


@pytest.mark.parametrize('x_shape, W_shape, kwargs, error, message', [
    ((1, 3, 4), (2, 2, 3), {}, ValueError,
     r'deconvolution_nd: x of shape \(1, 3, 4\) has 3 channels, but W of shape \(2, 2, 3\) '
     r'expects W.shape\[0\] = 2'),
    ((1, 3, 4), (3, 2, 3), {'groups': 2}, ValueError,
     r'deconvolution_nd: groups=2 must divide the number of channels of x, 3'),
    ((1, 3, 4), (3, 2, 3), {'outsize': (12,), 'stride': 2}, ValueError,
     r'deconvolution_nd: outsize \(12,\) is impossible for x of shape \(1, 3, 4\) \(ksize '
     r'\(3,\), stride \(2,\), pad \(0,\), dilate \(1,\)\): along spatial axis 0, an output of '
     r'size 12 is the transposed convolution of an input of size 5 to 6, not 4'),
    ((1, 3, 4), (3, 2, 3), {'outsize': (9, 9)}, ValueError,
     r'deconvolution_nd: outsize must have 1 entries \(one per spatial axis of x\), '
     r'but got \(9, 9\)'),
    ((1, 3, 4), (3, 2, 3), {'outsize': 'a'}, TypeError,
     "deconvolution_nd: outsize must be None or a sequence of 1 ints, but got 'a'"),
    ((1, 3, 1), (3, 2, 1), {'pad': 1}, ValueError,
     r'deconvolution_nd: the output size inferred from x of shape \(1, 3, 1\) \(ksize \(1,\), '
     r'stride \(1,\), pad \(1,\), dilate \(1,\)\) is not positive along spatial axis 0: -1'),
    ((1, 3, 4, 4), (3, 2, 3), {}, ValueError,
     r'deconvolution_nd: W must be 4-dimensional, but got shape \(3, 2, 3\)'),
    ((1, 3, 4, 4), (3, 2, 3, 3), {}, ValueError,
     r'deconvolution_1d: x must be 3-dimensional, but got shape \(1, 3, 4, 4\)'),
])
def test_rejects_bad_arguments(x_shape, W_shape, kwargs, error, message):
    function = F.deconvolution_1d if message.startswith('deconvolution_1d') \
        else F.deconvolution_nd
    with pytest.raises(error, match=message):
        function(numpy.zeros(x_shape, numpy.float32), numpy.zeros(W_shape, numpy.float32),
                 **kwargs)


def test_rejects_bias_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r'deconvolution_nd: b must have shape \(4,\), but got '
                                         r'shape \(2,\)'):
        F.deconvolution_nd(numpy.zeros((1, 2, 3), numpy.float32),
                           numpy.zeros((2, 2, 3), numpy.float32),
                           numpy.zeros(2, numpy.float32), groups=2)
