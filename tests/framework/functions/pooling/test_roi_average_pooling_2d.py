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
    'ties_to_even': ([[2.5, 0.5, 5.5, 3.5]], [0], 1.0),
}


def roi_average_pooling(x, rois, roi_indices, outsize, scale):
    """A loop over rois and bins following Chainer's CPU code; empty bins are 0."""
    _, _, height, width = x.shape
    y = numpy.zeros((len(rois), x.shape[1]) + outsize)
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (round(float(v) * scale) for v in roi)  # ties to even
        stride_h = max(y_max - y_min, 1) / outsize[0]
        stride_w = max(x_max - x_min, 1) / outsize[1]
        for i, j in numpy.ndindex(*outsize):
            y0 = min(max(math.floor(i * stride_h) + y_min, 0), height)
            y1 = min(max(math.ceil((i + 1) * stride_h) + y_min, 0), height)
            x0 = min(max(math.floor(j * stride_w) + x_min, 0), width)
            x1 = min(max(math.ceil((j + 1) * stride_w) + x_min, 0), width)
            if y0 < y1 and x0 < x1:
                y[r, :, i, j] = x[n, :, y0:y1, x0:x1].astype(numpy.float64).mean(axis=(1, 2))
    return y


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


class TestROIAveragePooling2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'outsize': [(3, 2), 4], 'dtype': [numpy.float32]})
              + product({'case': ['inside', 'outside'], 'outsize': [2], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        return numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_average_pooling_2d(x, device.send(self.rois), device.send(self.roi_indices),
                                        outsize=self.outsize, spatial_scale=self.scale),

    def forward_expected(self, inputs):
        x, = inputs
        y = roi_average_pooling(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale)
        return y.astype(self.dtype),


def test_gradient_spreads_over_each_bin():
    x = Variable(numpy.zeros((1, 1, 4, 4), numpy.float32))
    rois = numpy.array([[0, 0, 3, 4]], numpy.float32)  # rows [0, 2) and [1, 3), columns [0, 4)
    y = F.roi_average_pooling_2d(x, rois, numpy.zeros(1, numpy.int32), (2, 1), 1.0)
    gx, = grad([y], [x], [numpy.array([[[[8.], [16.]]]], numpy.float32)])
    numpy.testing.assert_allclose(gx.array[0, 0], [[1, 1, 1, 1], [3, 3, 3, 3], [2, 2, 2, 2],
                                                   [0, 0, 0, 0]])


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 5), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'roi_indices': numpy.array([0, -2], numpy.int64)}, ValueError,
     r'roi_indices must be in \[0, 2\)'),
    ({'spatial_scale': float('nan')}, ValueError, 'spatial_scale must be a positive float'),
    ({'outsize': 'a'}, TypeError, 'outsize must be a positive int or a pair'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros(_X_SHAPE, numpy.float32), 'rois': numpy.ones((2, 4), numpy.float32),
            'roi_indices': numpy.zeros(2, numpy.int32), 'outsize': 2, 'spatial_scale': 1.0}
    args.update(kwargs)
    with pytest.raises(error, match='roi_average_pooling_2d: ' + message):
        F.roi_average_pooling_2d(**args)
