import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_X_SHAPE = (2, 3, 6, 5)
# name: (rois as (y_min, x_min, y_max, x_max), roi_indices, spatial_scale); no bin lies entirely
# outside the image, so that every output is finite
_CASES = {
    'inside': ([[1.1, 0.7, 4.3, 3.9], [0.2, 1.3, 5.1, 4.6]], [0, 1], 1.0),
    'borders': ([[0, 0, 12, 10], [0, 6, 12, 10], [10, 0, 12, 10]], [1, 0, 1], 0.5),
    'partly_outside': ([[-1.2, -0.9, 2.3, 3.4], [3.1, 2.6, 6.4, 5.7]], [0, 1], 1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.3], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
}


def bilinear_taps(height, width, y, x):
    """Chainer's bilinear interpolation at (y, x) as ``[(row, column, weight)]``; None outside
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


def roi_max_align(x, rois, roi_indices, outsize, scale, ratio, gy=None):
    """A loop over rois, bins, channels and sample points, following Chainer's CPU code.

    Returns the output, or with ``gy`` the gradient of x (through the first maximal point)."""
    outh, outw = outsize
    _, channels, height, width = x.shape
    y = numpy.full((len(rois), channels, outh, outw), -numpy.inf)
    gx = numpy.zeros(x.shape)
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        roi_h, roi_w = max(y_max - y_min, 1.), max(x_max - x_min, 1.)
        grid_h = ratio[0] or math.ceil(roi_h / outh)
        grid_w = ratio[1] or math.ceil(roi_w / outw)
        for i, j, c in numpy.ndindex(outh, outw, channels):
            best = None
            for a in range(grid_h):
                for b in range(grid_w):
                    taps = bilinear_taps(height, width,
                                         y_min + (i + (a + .5) / grid_h) * roi_h / outh,
                                         x_min + (j + (b + .5) / grid_w) * roi_w / outw)
                    if taps is None:
                        continue
                    value = sum(w * float(x[n, c, p, q]) for p, q, w in taps)
                    if value > y[r, c, i, j]:
                        y[r, c, i, j], best = value, taps
            for p, q, w in best or ():
                gx[n, c, p, q] += w * (0. if gy is None else float(gy[r, c, i, j]))
    return y if gy is None else gx


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


class TestROIMaxAlign2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'outsize': [(3, 2)], 'ratio': [None, 2, (1, 3)],
                       'dtype': [numpy.float32]})
              + product({'case': ['inside', 'partly_outside'], 'outsize': [2], 'ratio': [2],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        return numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_max_align_2d(
            x, device.send(self.rois), device.send(self.roi_indices), outsize=self.outsize,
            spatial_scale=self.scale, sampling_ratio=self.ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = roi_max_align(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale,
                          _pair(self.ratio))
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        return roi_max_align(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale,
                             _pair(self.ratio), grad_outputs[0]),


class TestROIMaxAlign2DTies(FunctionTestCase):
    """Equal sample values: the first maximal point (in row-major order) takes the gradient."""

    params = product({'dtype': FLOAT_DTYPES})
    # the numerical derivative is undefined at ties
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[0.5, 0.5, 4.5, 3.5], [1., 1., 5., 4.]], numpy.float32)
        self.roi_indices = numpy.array([0, 1], numpy.int32)
        x = numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype)
        x[0] = 0.25
        x[1, :, 1:6, 1:5] = 0.5
        return x,

    def forward(self, inputs, device):
        return F.roi_max_align_2d(inputs[0], device.send(self.rois),
                                  device.send(self.roi_indices), 2, 1.0, 2),

    def forward_expected(self, inputs):
        y = roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 2), 1.0, (2, 2))
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 2), 1.0, (2, 2),
                             grad_outputs[0]),


class TestROIMaxAlign2DOutside(FunctionTestCase):
    """Bins without a point inside [-1, H] x [-1, W] are -inf and pass no gradient."""

    params = product({'dtype': [numpy.float32]})
    skip_backward_test = True  # -inf outputs
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[-9, -9, -2.5, -3], [-4, 3.5, 2, 9]], numpy.float32)
        self.roi_indices = numpy.array([1, 0], numpy.int32)
        return numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype),

    def forward(self, inputs, device):
        return F.roi_max_align_2d(inputs[0], device.send(self.rois),
                                  device.send(self.roi_indices), (2, 3), 1.0),

    def forward_expected(self, inputs):
        y = roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, (None, None))
        assert numpy.isinf(y).any() and numpy.isfinite(y).any()
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return roi_max_align(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, (None, None),
                             grad_outputs[0]),


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 3), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'roi_indices': numpy.array([0, 5])}, ValueError, r'roi_indices must be in \[0, 2\)'),
    ({'spatial_scale': -1.}, ValueError, 'spatial_scale must be a positive float'),
    ({'sampling_ratio': (2, 0)}, ValueError, 'sampling_ratio must be'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros(_X_SHAPE, numpy.float32), 'rois': numpy.ones((2, 4), numpy.float32),
            'roi_indices': numpy.zeros(2, numpy.int32), 'outsize': 2, 'spatial_scale': 1.0}
    args.update(kwargs)
    with pytest.raises(error, match='roi_max_align_2d: ' + message):
        F.roi_max_align_2d(**args)


def test_bins_processed_in_chunks_give_the_same_results(monkeypatch):
    from framework import Variable, grad
    from framework.functions.pooling import _roi
    x = Variable(numpy.random.uniform(-1, 1, _X_SHAPE).astype(numpy.float32))
    rois, indices, _ = _CASES['scaled']
    rois, indices = numpy.array(rois, numpy.float32), numpy.array(indices, numpy.int32)
    gy = numpy.random.uniform(-1, 1, (2, 3, 4, 3)).astype(numpy.float32)

    def run():
        y = F.roi_max_align_2d(x, rois, indices, (4, 3), 0.6)
        return y.array, grad([y], [x], [gy])[0].array

    expected = run()
    monkeypatch.setattr(_roi, '_CHUNK_ELEMENTS', 50)  # a few bins per chunk
    for actual, wanted in zip(run(), expected):
        numpy.testing.assert_array_equal(actual, wanted)
