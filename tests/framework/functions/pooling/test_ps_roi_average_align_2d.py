import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# name: (rois as (y_min, x_min, y_max, x_max), roi_indices, spatial_scale) on x of (2, _, 6, 5)
_CASES = {
    'inside': ([[1.1, 0.7, 4.3, 3.9], [0.2, 1.3, 5.1, 4.6]], [0, 1], 1.0),
    'borders': ([[0, 0, 12, 10], [0, 6, 12, 10], [10, 0, 12, 10]], [1, 0, 1], 0.5),
    'outside': ([[-3.2, -2.1, 2.3, 3.4], [3.1, 2.6, 9.7, 8.3], [-9, -9, -2.5, -3]], [0, 1, 1],
                1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.7], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
}


def bilinear(image, y, x):
    """ChainerCV's bilinear read of ``image`` (H, W) at (y, x): None outside [-1, H] x [-1, W];
    coordinates in [-1, 0] read row/column 0 and past the last pixel read the last one."""
    height, width = image.shape
    if not (-1 <= y <= height and -1 <= x <= width):
        return None
    y, x = min(max(y, 0.), height - 1.), min(max(x, 0.), width - 1.)
    y0, x0 = min(int(y), height - 2), min(int(x), width - 2)
    ly, lx = y - y0, x - x0
    padded = numpy.pad(image, ((0, 1), (0, 1)))  # for one-pixel-wide images
    return ((1 - ly) * (1 - lx) * padded[y0, x0] + (1 - ly) * lx * padded[y0, x0 + 1]
            + ly * (1 - lx) * padded[y0 + 1, x0] + ly * lx * padded[y0 + 1, x0 + 1])


def ps_roi_average_align(x, rois, roi_indices, outsize, scale, group_size, ratio):
    """A loop over rois, output channels, bins and sample points after ChainerCV's CPU code."""
    _, channels, height, width = x.shape
    outh, outw = outsize
    y = numpy.zeros((len(rois), channels // group_size ** 2, outh, outw))
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        roi_h, roi_w = max(y_max - y_min, 0.1), max(x_max - x_min, 0.1)
        grid_h = ratio[0] or math.ceil(roi_h / outh)
        grid_w = ratio[1] or math.ceil(roi_w / outw)
        for c, i, j in numpy.ndindex(*y.shape[1:]):
            channel = (c * group_size + i * group_size // outh) * group_size \
                + j * group_size // outw
            for a, b in numpy.ndindex(grid_h, grid_w):
                value = bilinear(x[n, channel].astype(numpy.float64),
                                 y_min + (i + (a + .5) / grid_h) * roi_h / outh,
                                 x_min + (j + (b + .5) / grid_w) * roi_w / outw)
                if value is not None:
                    y[r, c, i, j] += value / (grid_h * grid_w)
    return y


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


class TestPSROIAverageAlign2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'group_size': [2], 'outsize': [(3, 2), (2, 3, 3)],
                       'ratio': [None, (2, 1)], 'dtype': [numpy.float32]})
              + product({'case': ['inside', 'outside'], 'group_size': [1, 3], 'outsize': [4],
                         'ratio': [2], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        shape = (2, 2 * self.group_size ** 2, 6, 5)
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.ps_roi_average_align_2d(
            x, device.send(self.rois), device.send(self.roi_indices), outsize=self.outsize,
            spatial_scale=self.scale, group_size=self.group_size, sampling_ratio=self.ratio),

    def forward_expected(self, inputs):
        outsize = (self.outsize,) * 2 if isinstance(self.outsize, int) else self.outsize[-2:]
        y = ps_roi_average_align(inputs[0], self.rois, self.roi_indices, outsize, self.scale,
                                 self.group_size, _pair(self.ratio))
        return y.astype(self.dtype),


def test_small_rois_are_at_least_a_tenth_of_a_pixel():
    """Unlike roi_average_align_2d (at least 1 pixel), as ChainerCV."""
    x = numpy.arange(30, dtype=numpy.float32).reshape(1, 1, 6, 5)
    rois = numpy.array([[2., 1., 2., 1.]], numpy.float32)
    indices = numpy.zeros(1, numpy.int32)
    y = F.ps_roi_average_align_2d(x, rois, indices, 1, 1.0, 1, 1)
    numpy.testing.assert_allclose(y.array, [[[[5 * 2.05 + 1.05]]]], rtol=1e-6)
    y = F.roi_average_align_2d(x, rois, indices, 1, 1.0, 1)
    numpy.testing.assert_allclose(y.array, [[[[5 * 2.5 + 1.5]]]], rtol=1e-6)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 5), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'roi_indices': numpy.array([0, 3], numpy.int32)}, ValueError,
     r'roi_indices must be in \[0, 2\)'),
    ({'spatial_scale': -2.}, ValueError, 'spatial_scale must be a positive float'),
    ({'group_size': 3}, ValueError, r'the channels of x must be a multiple of group_size'),
    ({'outsize': (3, 2, 2)}, ValueError, r'x must have outsize\[0\] \* group_size \*\* 2'),
    ({'sampling_ratio': -1}, ValueError, 'sampling_ratio must be'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros((2, 8, 6, 5), numpy.float32),
            'rois': numpy.ones((2, 4), numpy.float32), 'roi_indices': numpy.zeros(2, numpy.int32),
            'outsize': 2, 'spatial_scale': 1.0, 'group_size': 2}
    args.update(kwargs)
    with pytest.raises(error, match='ps_roi_average_align_2d: ' + message):
        F.ps_roi_average_align_2d(**args)
