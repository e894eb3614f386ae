import math

import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_X_SHAPE = (2, 3, 6, 5)
# name: (rois as (y_min, x_min, y_max, x_max), roi_indices, spatial_scale)
_CASES = {
    'inside': ([[1.1, 0.7, 4.3, 3.9], [0.2, 1.3, 5.1, 4.6]], [0, 1], 1.0),
    'borders': ([[0, 0, 12, 10], [0, 6, 12, 10], [10, 0, 12, 10]], [1, 0, 1], 0.5),
    'outside': ([[-3.2, -2.1, 2.3, 3.4], [3.1, 2.6, 9.7, 8.3], [-9, -9, -2.5, -3]], [0, 1, 1],
                1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.3], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
}


def bilinear(image, y, x):
    """Chainer's bilinear read of ``image`` (C, H, W) at (y, x): None outside [-1, H] x [-1, W];
    coordinates in [-1, 0] read row/column 0 and past the last pixel read the last one."""
    _, height, width = image.shape
    if not (-1 <= y <= height and -1 <= x <= width):
        return None
    y, x = max(y, 0.), max(x, 0.)
    y0, x0 = int(y), int(x)
    y1, x1 = y0 + 1, x0 + 1
    if y0 >= height - 1:
        y0 = y1 = height - 1
        y = float(y0)
    if x0 >= width - 1:
        x0 = x1 = width - 1
        x = float(x0)
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * image[:, y0, x0] + (1 - ly) * lx * image[:, y0, x1]
            + ly * (1 - lx) * image[:, y1, x0] + ly * lx * image[:, y1, x1])


def roi_average_align(x, rois, roi_indices, outsize, scale, ratio):
    """A loop over rois, bins and sample points, following Chainer's CPU code."""
    outh, outw = outsize
    y = numpy.zeros((len(rois), x.shape[1], outh, outw))
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        height, width = max(y_max - y_min, 1.), max(x_max - x_min, 1.)
        grid_h = ratio[0] or math.ceil(height / outh)
        grid_w = ratio[1] or math.ceil(width / outw)
        for i in range(outh):
            for j in range(outw):
                for a in range(grid_h):
                    for b in range(grid_w):
                        value = bilinear(x[n].astype(numpy.float64),
                                         y_min + (i + (a + .5) / grid_h) * height / outh,
                                         x_min + (j + (b + .5) / grid_w) * width / outw)
                        if value is not None:
                            y[r, :, i, j] += value / (grid_h * grid_w)
    return y


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


class TestROIAverageAlign2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'outsize': [(3, 2)], 'ratio': [None, 2, (1, 3)],
                       'dtype': [numpy.float32]})
              + product({'case': ['inside', 'outside'], 'outsize': [2, (1, 4)], 'ratio': [2],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        return numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_average_align_2d(
            x, device.send(self.rois), device.send(self.roi_indices), outsize=self.outsize,
            spatial_scale=self.scale, sampling_ratio=self.ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = roi_average_align(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale,
                              _pair(self.ratio))
        return y.astype(self.dtype),


def test_matches_hand_computed_values():
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 1, 3, 4)
    rois = numpy.array([[0., 0., 2., 2.]], numpy.float32)
    y = F.roi_average_align_2d(x, rois, numpy.zeros(1, numpy.int32), 1, 1.0, 1)
    # one sample at (1, 1): x[0, 0, 1, 1] = 5
    numpy.testing.assert_allclose(y.array, [[[[5.]]]])
    y = F.roi_average_align_2d(x, rois, numpy.zeros(1, numpy.int32), 2, 1.0, 1)
    # samples at (0.5, 0.5), (0.5, 1.5), (1.5, 0.5), (1.5, 1.5): bilinear in 4 * y + x
    numpy.testing.assert_allclose(y.array, [[[[2.5, 3.5], [6.5, 7.5]]]])


def test_points_beyond_the_border_count_as_zero():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    # x from -3 to 5 in 2 bins of 2 points: -2, 0, 2, 4; -2 is beyond -1, 4 is at the border
    rois = numpy.array([[0., -3., 4., 5.]], numpy.float32)
    y = F.roi_average_align_2d(x, rois, numpy.zeros(1, numpy.int32), (1, 2), 1.0, (1, 2))
    numpy.testing.assert_allclose(y.array, [[[[0.5, 1.]]]])


def test_no_rois():
    x = Variable(numpy.ones(_X_SHAPE, numpy.float32))
    y = F.roi_average_align_2d(x, numpy.zeros((0, 4), numpy.float32),
                               numpy.zeros(0, numpy.int32), (2, 3), 1.0)
    assert y.shape == (0, 3, 2, 3)
    gx, = grad([y], [x], [numpy.zeros(y.shape, numpy.float32)])
    numpy.testing.assert_array_equal(gx.array, 0)


def test_rois_and_indices_get_no_gradient():
    x = Variable(numpy.random.uniform(-1, 1, _X_SHAPE).astype(numpy.float32))
    rois = Variable(numpy.array([[1.1, 0.7, 4.3, 3.9]], numpy.float32))
    indices = Variable(numpy.array([1], numpy.int32), requires_grad=False)
    y = F.roi_average_align_2d(x, rois, indices, 2, 1.0)
    gx, grois = grad([y], [x, rois], [numpy.ones(y.shape, numpy.float32)])
    assert gx is not None and grois is None


def _call(x=None, rois=None, roi_indices=None, **kwargs):
    args = {'outsize': 2, 'spatial_scale': 1.0}
    args.update(kwargs)
    return F.roi_average_align_2d(
        numpy.zeros(_X_SHAPE, numpy.float32) if x is None else x,
        numpy.ones((2, 4), numpy.float32) if rois is None else rois,
        numpy.zeros(2, numpy.int32) if roi_indices is None else roi_indices, **args)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'x': numpy.zeros((2, 3, 6), numpy.float32)}, ValueError,
     r'x must be 4-dimensional, but got shape \(2, 3, 6\)'),
    ({'x': numpy.zeros(_X_SHAPE, numpy.int32)}, TypeError, 'x must be a floating-point array'),
    ({'rois': numpy.ones((2, 5), numpy.float32)}, ValueError,
     r'rois must have shape \(\*, 4\), but got shape \(2, 5\)'),
    ({'rois': numpy.ones(4, numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'rois': numpy.ones((2, 4), numpy.int32)}, TypeError, 'rois must be a floating-point'),
    ({'roi_indices': numpy.zeros(3, numpy.int32)}, ValueError,
     r'roi_indices must have shape \(R,\).*R = 2 for rois of shape \(2, 4\), but got shape \(3,\)'),
    ({'roi_indices': numpy.zeros(2, numpy.float32)}, TypeError,
     'roi_indices must be a signed integer or unsigned integer array'),
    ({'roi_indices': numpy.array([0, 2], numpy.int32)}, ValueError,
     r'roi_indices must be in \[0, 2\), the batch of x of shape \(2, 3, 6, 5\), '
     r'but got values from 0 to 2'),
    ({'roi_indices': numpy.array([-1, 0], numpy.int32)}, ValueError,
     r'roi_indices must be in \[0, 2\).*from -1 to 0'),
    ({'spatial_scale': 0.}, ValueError, 'spatial_scale must be a positive float, but got 0.0'),
    ({'spatial_scale': -0.5}, ValueError, 'spatial_scale must be a positive float'),
    ({'spatial_scale': 'half'}, TypeError, 'spatial_scale must be a positive float, but got str'),
    ({'outsize': 0}, ValueError, 'outsize must be a positive int or a pair of them'),
    ({'outsize': (2, 2, 2)}, ValueError, 'outsize must be a positive int or a pair'),
    ({'outsize': 2.}, TypeError, 'outsize must be a positive int or a pair of them'),
    ({'sampling_ratio': 0}, ValueError, r'sampling_ratio must be .* \(or None\), but got 0'),
    ({'sampling_ratio': (None, 1.5)}, TypeError, 'sampling_ratio must be'),
])
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match='roi_average_align_2d: ' + message):
        _call(**kwargs)


def test_accepts_numpy_scalars_and_sequences():
    x = numpy.random.uniform(-1, 1, _X_SHAPE).astype(numpy.float32)
    rois, indices, _ = _CASES['inside']
    rois, indices = numpy.array(rois, numpy.float32), numpy.array(indices, numpy.int64)
    y = F.roi_average_align_2d(x, rois, indices, [numpy.int32(3), 2], numpy.float32(0.5),
                               (numpy.int32(1), None))
    expected = roi_average_align(x, rois, indices, (3, 2), 0.5, (1, None))
    numpy.testing.assert_allclose(y.array, expected, atol=1e-6, rtol=1e-5)


def test_bins_processed_in_chunks_give_the_same_results(monkeypatch):
    from framework.functions.pooling import _roi
    x = Variable(numpy.random.uniform(-1, 1, _X_SHAPE).astype(numpy.float32))
    rois, indices, _ = _CASES['outside']
    rois, indices = numpy.array(rois, numpy.float32), numpy.array(indices, numpy.int32)
    gy = numpy.random.uniform(-1, 1, (3, 3, 4, 3)).astype(numpy.float32)

    def run():
        y = F.roi_average_align_2d(x, rois, indices, (4, 3), 1.0)
        return y.array, grad([y], [x], [gy])[0].array

    expected = run()
    monkeypatch.setattr(_roi, '_CHUNK_ELEMENTS', 50)  # a few bins per chunk
    for actual, wanted in zip(run(), expected):
        numpy.testing.assert_allclose(actual, wanted, atol=1e-6, rtol=1e-5)
