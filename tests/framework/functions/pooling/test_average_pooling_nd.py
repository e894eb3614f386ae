import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, ksize, stride, pad, count_padding):
    """Average pooling by a loop over the outputs, the padding counting in the divisor or not."""
    n = x.ndim - 2
    out = tuple((d + 2 * p - k) // s + 1 for d, k, s, p in zip(x.shape[2:], ksize, stride, pad))
    y = numpy.empty(x.shape[:2] + out, x.dtype)
    for o in numpy.ndindex(*out):
        starts = [o[i] * stride[i] - pad[i] for i in range(n)]
        window = x[(slice(None),) * 2 + tuple(
            slice(max(start, 0), start + k) for start, k in zip(starts, ksize))]
        divisor = numpy.prod(ksize) if count_padding else numpy.prod(window.shape[2:])
        y[(slice(None),) * 2 + o] = window.sum(axis=tuple(range(2, 2 + n))) / divisor
    return y


def _as_tuple(value, n):
    return value if isinstance(value, tuple) else (value,) * n


# (shape, ksize, stride, pad): overlapping with padding, stride other than ksize, rectangular
# windows, stride 1 without padding, global and large non-overlapping windows, padded or not.
_CONFIGS_2D = [
    ((2, 3, 7, 6), 3, 2, 1),
    ((2, 2, 5, 7), 2, None, 0),
    ((1, 2, 6, 7), (2, 3), (1, 2), (1, 0)),
    ((1, 3, 5, 6), 3, 1, 0),
    ((2, 3, 7, 6), (7, 6), None, 0),
    ((1, 2, 8, 8), 4, None, 0),
    ((1, 2, 5, 5), 3, None, 1),
]


class TestAveragePooling2D(FunctionTestCase):
    """The padding counts as zeros in the average, as in Chainer."""

    params = product({'config': _CONFIGS_2D, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.config[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, ksize, stride, pad = self.config
        return F.average_pooling_2d(inputs[0], ksize, stride, pad),

    def forward_expected(self, inputs):
        _, ksize, stride, pad = self.config
        ksize, stride, pad = (_as_tuple(v, 2) for v in (ksize, stride or ksize, pad))
        return _reference(inputs[0], ksize, stride, pad, True),


class TestAveragePoolingND(FunctionTestCase):
    """1-D, 2-D and 3-D with either pad_value."""

    params = product({
        'case': [('average_pooling_1d', (2, 3, 9), (3,), (2,), (1,)),
                 ('average_pooling_nd', (2, 3, 9), (4,), (4,), (0,)),
                 ('average_pooling_nd', (1, 2, 6, 5), (3, 2), (2, 1), (1, 1)),
                 ('average_pooling_3d', (1, 2, 4, 5, 3), (2, 3, 2), (2, 2, 1), (1, 1, 0)),
                 ('average_pooling_nd', (1, 2, 4, 5, 3), (2, 2, 2), (1, 1, 1), (0, 0, 0))],
        'pad_value': [0, None],
        'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[1]).astype(self.dtype),

    def forward(self, inputs, device):
        name, _, ksize, stride, pad = self.case
        return getattr(F, name)(inputs[0], ksize, stride, pad, pad_value=self.pad_value),

    def forward_expected(self, inputs):
        _, _, ksize, stride, pad = self.case
        return _reference(inputs[0], ksize, stride, pad, self.pad_value == 0),


def test_padding_counts_in_average_pooling_2d():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    numpy.testing.assert_allclose(F.average_pooling_2d(x, 2, 1, 1).array[0, 0],
                                  [[0.25, 0.5, 0.25], [0.5, 1, 0.5], [0.25, 0.5, 0.25]])
    numpy.testing.assert_allclose(F.average_pooling_nd(x, 2, 1, 1, pad_value=None).array,
                                  numpy.ones((1, 1, 3, 3)))


def test_rejects_bad_pad_value():
    with pytest.raises(ValueError, match='average_pooling_nd: pad_value must be 0 .* or None '
                                         r'\(it does not\), but got 1'):
        F.average_pooling_nd(numpy.zeros((1, 1, 4, 4), numpy.float32), 2, pad_value=1)


def test_rejects_bad_input():
    with pytest.raises(TypeError, match='average_pooling_2d: x must be a floating-point array, '
                                        'but got dtype int64'):
        F.average_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int64), 2)
    with pytest.raises(ValueError, match=r'average_pooling_1d: x must be 3-dimensional, but '
                                         r'got shape \(1, 1, 4, 4\)'):
        F.average_pooling_1d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2)
    with pytest.raises(ValueError, match=r'average_pooling_3d: ksize must be an int or a '
                                         r'sequence of 3 ints .* but got \(2, 2\)'):
        F.average_pooling_3d(numpy.zeros((1, 1, 4, 4, 4), numpy.float32), (2, 2))
    with pytest.raises(ValueError, match=r'average_pooling_2d: the windows .* do not fit in '
                                         r'the spatial size \(4, 3\)'):
        F.average_pooling_2d(numpy.zeros((1, 1, 4, 3), numpy.float32), 4)
