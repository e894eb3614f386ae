import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _reference(x, ksize, stride, pad, cover_all, dilate):
    """The patches by their definition, one output pixel at a time."""
    (kh, kw), (sy, sx), (ph, pw), (dy, dx) = map(_pair, (ksize, stride, pad, dilate))
    n, c, h, w = x.shape
    out_h = (h + 2 * ph - (kh - 1) * dy - 1 + (sy - 1) * cover_all) // sy + 1
    out_w = (w + 2 * pw - (kw - 1) * dx - 1 + (sx - 1) * cover_all) // sx + 1
    padded = numpy.zeros((n, c, h + 2 * ph + sy, w + 2 * pw + sx), x.dtype)
    padded[:, :, ph:ph + h, pw:pw + w] = x
    y = numpy.empty((n, c, kh, kw, out_h, out_w), x.dtype)
    for i in range(out_h):
        for j in range(out_w):
            patch = padded[:, :, i * sy:i * sy + (kh - 1) * dy + 1:dy,
                           j * sx:j * sx + (kw - 1) * dx + 1:dx]
            y[:, :, :, :, i, j] = patch
    return y.reshape(n, c * kh * kw, out_h, out_w)


# x shape, ksize, stride, pad, cover_all, dilate
_CASES = [
    ((2, 3, 5, 4), 3, 1, 1, False, 1),
    ((1, 2, 7, 6), (3, 2), (2, 3), (1, 0), True, 1),
    ((1, 2, 7, 7), 2, 2, 1, False, (2, 3)),
    ((2, 1, 3, 3), 1, 1, 0, False, 1),
]


class TestIm2Col(FunctionTestCase):
    params = product({'case': _CASES, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.im2col(x, *self.case[1:]),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference(x, *self.case[1:]),


def test_keywords_are_chainers():
    x = numpy.random.uniform(-1, 1, (1, 2, 5, 5)).astype(numpy.float32)
    y = F.im2col(x, ksize=3, stride=2, pad=1, cover_all=True, dilate=1)
    numpy.testing.assert_array_equal(y.array, _reference(x, 3, 2, 1, True, 1))


@pytest.mark.parametrize('shape, kwargs, error, message', [
    ((1, 2, 5), {'ksize': 2}, ValueError,
     r'im2col: x must be 4-dimensional, but got shape \(1, 2, 5\)'),
    ((1, 2, 3, 3), {'ksize': 4}, ValueError,
     r'im2col: the windows \(ksize \(4, 4\), stride \(1, 1\), pad \(0, 0\), dilate \(1, 1\), '
     r'cover_all=False\) do not fit in the spatial size \(3, 3\) of x'),
    ((1, 2, 3, 3), {'ksize': 0}, ValueError, 'im2col: ksize must be positive, but got 0'),
    ((1, 2, 3, 3), {'ksize': (1, 2, 3)}, ValueError,
     r'im2col: ksize must be an int or a sequence of 2 ints'),
])
def test_rejects_bad_arguments(shape, kwargs, error, message):
    with pytest.raises(error, match=message):
        F.im2col(numpy.zeros(shape, numpy.float32), **kwargs)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='im2col: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.im2col(numpy.zeros((1, 1, 3, 3), numpy.int32), 2)
