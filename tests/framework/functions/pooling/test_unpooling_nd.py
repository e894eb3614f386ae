import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, ksize, stride, pad, outsize):
    """Unpooling by a loop over the inputs: each value added to its whole window."""
    n = x.ndim - 2
    big = tuple(o + 2 * p + s + k for o, k, s, p in zip(outsize, ksize, stride, pad))
    padded = numpy.zeros(x.shape[:2] + big, x.dtype)
    for i in numpy.ndindex(*x.shape[2:]):
        window = (slice(None),) * 2 + tuple(
            slice(i[a] * stride[a], i[a] * stride[a] + ksize[a]) for a in range(n))
        padded[window] += x[(slice(None),) * 2 + i][(...,) + (None,) * n]
    return padded[(slice(None),) * 2 + tuple(slice(p, p + o) for p, o in zip(pad, outsize))]


def _outsize(in_size, ksize, stride, pad, cover_all):
    """Chainer's get_deconv_outsize."""
    return tuple(s * (d - 1) + k - (s - 1 if cover_all else 0) - 2 * p
                 for d, k, s, p in zip(in_size, ksize, stride, pad))


# (shape, ksize, stride, pad, outsize, cover_all): non-overlapping windows, overlapping windows
# with padding, an outsize that the windows do not reach, rectangular windows, global windows.
_CONFIGS_2D = [
    ((2, 3, 3, 2), 2, None, 0, None, False),
    ((2, 3, 3, 2), 2, None, 0, None, True),
    ((2, 2, 3, 4), 3, 2, 1, None, True),
    ((2, 2, 3, 4), 3, 2, 1, (5, 7), True),
    ((1, 2, 3, 4), 3, 2, 1, (6, 8), False),
    ((1, 2, 3, 2), (2, 3), (1, 2), (1, 0), None, False),
    ((2, 3, 1, 1), (5, 4), None, 0, (5, 4), False),
]


class TestUnpooling2D(FunctionTestCase):
    params = product({'config': _CONFIGS_2D, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.config[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, ksize, stride, pad, outsize, cover_all = self.config
        return F.unpooling_2d(inputs[0], ksize, stride, pad, outsize, cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        _, ksize, stride, pad, outsize, cover_all = self.config
        ksize, stride, pad = (v if isinstance(v, tuple) else (v, v)
                              for v in (ksize, stride or ksize, pad))
        outsize = outsize or _outsize(x.shape[2:], ksize, stride, pad, cover_all)
        return _reference(x, ksize, stride, pad, outsize),


class TestUnpoolingND(FunctionTestCase):
    params = product({
        'case': [('unpooling_1d', (2, 3, 4), (3,), (2,), (1,)),
                 ('unpooling_nd', (2, 3, 4), (2,), (2,), (0,)),
                 ('unpooling_3d', (1, 2, 2, 3, 2), (2, 3, 2), (2, 2, 1), (1, 1, 0))],
        'cover_all': [True, False],
        'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[1]).astype(self.dtype),

    def forward(self, inputs, device):
        name, _, ksize, stride, pad = self.case
        return getattr(F, name)(inputs[0], ksize, stride, pad, cover_all=self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        _, _, ksize, stride, pad = self.case
        outsize = _outsize(x.shape[2:], ksize, stride, pad, self.cover_all)
        return _reference(x, ksize, stride, pad, outsize),


def test_chainer_cover_all_output_size():
    # With cover_all (the default), Chainer's inferred size is s * (h - 1) + k - s + 1 - 2p.
    x = numpy.ones((1, 1, 2, 3), numpy.float32)
    assert F.unpooling_2d(x, 2).shape == (1, 1, 3, 5)
    assert F.unpooling_2d(x, 2, cover_all=False).shape == (1, 1, 4, 6)


def test_rejects_inconsistent_outsize():
    with pytest.raises(ValueError, match=r'unpooling_2d: outsize \(5, 6\) pooled with ksize '
                                         r'\(2, 2\), stride \(2, 2\), pad \(0, 0\), '
                                         r'cover_all=False gives spatial size \(2, 3\), but x '
                                         r'has spatial size \(2, 2\)'):
        F.unpooling_2d(numpy.zeros((1, 1, 2, 2), numpy.float32), 2, outsize=(5, 6),
                       cover_all=False)


def test_rejects_bad_input():
    with pytest.raises(TypeError, match='unpooling_2d: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.unpooling_2d(numpy.zeros((1, 1, 2, 2), numpy.int32), 2)
    with pytest.raises(ValueError, match=r'unpooling_1d: x must be 3-dimensional, but got '
                                         r'shape \(1, 1, 2, 2\)'):
        F.unpooling_1d(numpy.zeros((1, 1, 2, 2), numpy.float32), 2)
    with pytest.raises(ValueError, match=r'unpooling_2d: the inferred output size \(-1, -1\) '
                                         r'of x with spatial size \(1, 1\) is not positive'):
        F.unpooling_2d(numpy.zeros((1, 1, 1, 1), numpy.float32), 1, pad=1)
