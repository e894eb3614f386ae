import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _reference(x, pyramid_height):
    """Each level's bins as the maxima of explicit regions of the input, concatenated."""
    n, c, h, w = x.shape
    levels = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh, kw = math.ceil(h / bins), math.ceil(w / bins)
        ph, pw = (kh * bins - h) // 2, (kw * bins - w) // 2
        rows, cols = -(-(h + 2 * ph) // kh), -(-(w + 2 * pw) // kw)
        y = numpy.empty((n, c, rows, cols), x.dtype)
        for i in range(rows):
            for j in range(cols):
                region = x[:, :, max(i * kh - ph, 0):i * kh - ph + kh,
                           max(j * kw - pw, 0):j * kw - pw + kw]
                y[:, :, i, j] = region.max(axis=(2, 3))
        levels.append(y.reshape(n, -1))
    return numpy.concatenate(levels, axis=1)[:, :, None, None]


class TestSpatialPyramidPooling2D(FunctionTestCase):
    params = product({'case': [((2, 3, 9, 7), 3), ((1, 2, 4, 4), 2), ((2, 2, 5, 6), 1)],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        shape = self.case[0]
        size = int(numpy.prod(shape))
        values = numpy.random.permutation(size) * (2.0 / size) - 1  # no ties
        return values.reshape(shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.spatial_pyramid_pooling_2d(inputs[0], self.case[1], pooling='max'),

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.case[1]),


def test_output_shape_and_default_pooling():
    x = numpy.zeros((2, 5, 13, 11), numpy.float32)
    assert F.spatial_pyramid_pooling_2d(x, 3).shape == (2, 5 * (1 + 4 + 16), 1, 1)


def test_rejects_bad_arguments():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match="spatial_pyramid_pooling_2d: pooling must be 'max' "
                                         r"\(the only pooling supported\), but got 'average'"):
        F.spatial_pyramid_pooling_2d(x, 2, pooling='average')
    with pytest.raises(ValueError, match='spatial_pyramid_pooling_2d: pyramid_height must be '
                                         'positive, but got 0'):
        F.spatial_pyramid_pooling_2d(x, 0)
    with pytest.raises(ValueError, match=r'spatial_pyramid_pooling_2d: x must be 4-dimensional, '
                                         r'but got shape \(1, 4, 4\)'):
        F.spatial_pyramid_pooling_2d(x[0], 2)
