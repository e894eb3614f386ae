import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# name: (rois as (y_min, x_min, y_max, x_max), roi_indices, spatial_scale) on x of (2, _, 6, 5);
# every bin has a point inside [-1, H] x [-1, W], so that every output is finite
_CASES = {
    'inside': ([[1.1, 0.7, 4.3, 3.9], [0.2, 1.3, 5.1, 4.6]], [0, 1], 1.0),
    'borders': ([[0, 0, 12, 10], [0, 6, 12, 10], [10, 0, 12, 10]], [1, 0, 1], 0.5),
    'partly_outside': ([[-1.2, -0.9, 2.3, 3.4], [3.1, 2.6, 6.4, 5.7]], [0, 1], 1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.7], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
}


def bilinear_taps(height, width, y, x):
    """ChainerCV's bilinear interpolation at (y, x) as ``[(row, column, weight)]``; None outside
    [-1, H] x [-1, W]. Coordinates in [-1, 0] read row/column 0, past the last pixel the last."""
    if not (-1 <= y <= height and -1 <= x <= width):
        return None
    y, x = max(y, 0.), max(x, 0.)
    y0, x0 = min(int(y), height - 1), min(int(x), width - 1)
    ly = y - y0 if y0 < height - 1 else 0.
    lx = x - x0 if x0 < width - 1 else 0.
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    return [(y0, x0, (1 - ly) * (1 - lx)), (y0, x1, (1 - ly) * lx), (y1, x0, ly * (1 - lx)),
            (y1, x1, ly * lx)]


def ps_roi_max_align(x, rois, roi_indices, outsize, scale, group_size, ratio, gy=None):
    """A loop over rois, output channels, bins and sample points after ChainerCV's CPU code:
    the output (-inf where a bin has no point), or with ``gy`` the gradient of x (through the
    first maximal point)."""
    _, channels, height, width = x.shape
    outh, outw = outsize
    y = numpy.full((len(rois), channels // group_size ** 2, outh, outw), -numpy.inf)
    gx = numpy.zeros(x.shape)
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        roi_h, roi_w = max(y_max - y_min, 0.1), max(x_max - x_min, 0.1)
        grid_h = ratio[0] or math.ceil(roi_h / outh)
        grid_w = ratio[1] or math.ceil(roi_w / outw)
        for c, i, j in numpy.ndindex(*y.shape[1:]):
            channel = (c * group_size + i * group_size // outh) * group_size \
                + j * group_size // outw
            best = None
            for a, b in numpy.ndindex(grid_h, grid_w):
                taps = bilinear_taps(height, width,
                                     y_min + (i + (a + .5) / grid_h) * roi_h / outh,
                                     x_min + (j + (b + .5) / grid_w) * roi_w / outw)
                if taps is None:
                    continue
                value = sum(w * float(x[n, channel, p, q]) for p, q, w in taps)
                if value > y[r, c, i, j]:
                    y[r, c, i, j], best = value, taps
            for p, q, w in best or ():
                gx[n, channel, p, q] += w * (0. if gy is None else float(gy[r, c, i, j]))
    return y if gy is None else gx


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


def _outsize_pair(outsize):
    return (outsize,) * 2 if isinstance(outsize, int) else outsize[-2:]


class TestPSROIMaxAlign2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'group_size': [2], 'outsize': [(3, 2), (2, 3, 3)],
                       'ratio': [None, 2, (1, 3)], 'dtype': [numpy.float32]})
              # (on 'partly_outside', 4 x 4 bins give a corner bin whose points all read the
              # corner pixel: ties, where the numerical derivative is undefined)
              + product({'case': ['inside', 'scaled'], 'group_size': [1, 3], 'outsize': [4],
                         'ratio': [2], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        shape = (2, 2 * self.group_size ** 2, 6, 5)
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.ps_roi_max_align_2d(
            x, device.send(self.rois), device.send(self.roi_indices), outsize=self.outsize,
            spatial_scale=self.scale, group_size=self.group_size, sampling_ratio=self.ratio),

    def forward_expected(self, inputs):
        y = ps_roi_max_align(inputs[0], self.rois, self.roi_indices,
                             _outsize_pair(self.outsize), self.scale, self.group_size,
                             _pair(self.ratio))
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return ps_roi_max_align(inputs[0], self.rois, self.roi_indices,
                                _outsize_pair(self.outsize), self.scale, self.group_size,
                                _pair(self.ratio), grad_outputs[0]),


class TestPSROIMaxAlign2DOutside(FunctionTestCase):
    """Bins without a point inside [-1, H] x [-1, W] are -inf and pass no gradient."""

    params = product({'dtype': [numpy.float32]})
    skip_backward_test = True  # -inf outputs
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[-9, -9, -2.5, -3], [-4, 3.5, 2, 9]], numpy.float32)
        self.roi_indices = numpy.array([1, 0], numpy.int32)
        return numpy.random.uniform(-1, 1, (2, 8, 6, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.ps_roi_max_align_2d(inputs[0], device.send(self.rois),
                                     device.send(self.roi_indices), (2, 3), 1.0, 2),

    def forward_expected(self, inputs):
        y = ps_roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2,
                             (None, None))
        assert numpy.isinf(y).any() and numpy.isfinite(y).any()
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return ps_roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2,
                                (None, None), grad_outputs[0]),


class TestPSROIMaxAlign2DEmptyValue(FunctionTestCase):
    """``empty_value`` stands for the bins without a point (Light-Head R-CNN's 0), which pass
    no gradient; the other bins are as without it."""

    params = product({'empty_value': [0., -2.5], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        self.rois = numpy.array([[-9, -9, -2.5, -3], [-4, 3.5, 2, 9]], self.dtype)
        self.roi_indices = numpy.array([1, 0], numpy.int32)
        return numpy.random.uniform(-1, 1, (2, 8, 6, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.ps_roi_max_align_2d(inputs[0], device.send(self.rois),
                                     device.send(self.roi_indices), (2, 3), 1.0, 2,
                                     sampling_ratio=2, empty_value=self.empty_value),

    def forward_expected(self, inputs):
        y = ps_roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2, (2, 2))
        assert numpy.isinf(y).any() and numpy.isfinite(y).any()
        return numpy.where(numpy.isinf(y), self.empty_value, y).astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return ps_roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2,
                                (2, 2), grad_outputs[0]),


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 3), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'spatial_scale': -1.}, ValueError, 'spatial_scale must be a positive float'),
    ({'group_size': 0}, ValueError, 'group_size must be a positive int, but got 0'),
    ({'outsize': (3, 2, 2)}, ValueError,
     r'x must have outsize\[0\] \* group_size \*\* 2 = 3 \* 4 channels, '
     r'but got x of shape \(2, 8, 6, 5\)'),
    ({'sampling_ratio': (2, 0)}, ValueError, 'sampling_ratio must be'),
    ({'empty_value': float('nan')}, ValueError, 'empty_value must be a float or -inf'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros((2, 8, 6, 5), numpy.float32),
            'rois': numpy.ones((2, 4), numpy.float32), 'roi_indices': numpy.zeros(2, numpy.int32),
            'outsize': 2, 'spatial_scale': 1.0, 'group_size': 2}
    args.update(kwargs)
    with pytest.raises(error, match='ps_roi_max_align_2d: ' + message):
        F.ps_roi_max_align_2d(**args)
