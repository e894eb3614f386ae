import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# name: (rois as (y_min, x_min, y_max, x_max), roi_indices, spatial_scale) on x of (2, _, 6, 5);
# no bin lies entirely outside the image, so that every output is finite
_CASES = {
    'inside': ([[1.1, 0.7, 4.3, 3.9], [0.2, 1.3, 5.1, 4.6]], [0, 1], 1.0),
    'borders': ([[0, 0, 12, 10], [0, 6, 12, 10], [10, 0, 12, 10]], [1, 0, 1], 0.5),
    'partly_outside': ([[-0.6, -0.4, 4.3, 3.4], [2.1, 1.6, 6.7, 5.3]], [0, 1], 1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.3], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
}


def ps_roi_max_pooling(x, rois, roi_indices, outsize, scale, group_size, gy=None):
    """A loop over rois, output channels and bins following ChainerCV's CPU code: the output
    (-inf for empty bins), or with ``gy`` the gradient of x (to the first maximum of each bin in
    row-major order)."""
    _, channels, height, width = x.shape
    outh, outw = outsize
    y = numpy.full((len(rois), channels // group_size ** 2, outh, outw), -numpy.inf)
    gx = numpy.zeros(x.shape)
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        bin_h = max(y_max - y_min, 0.1) / outh
        bin_w = max(x_max - x_min, 0.1) / outw
        for c, i, j in numpy.ndindex(*y.shape[1:]):
            y0 = min(max(math.floor(i * bin_h + y_min), 0), height)
            y1 = min(max(math.ceil((i + 1) * bin_h + y_min), 0), height)
            x0 = min(max(math.floor(j * bin_w + x_min), 0), width)
            x1 = min(max(math.ceil((j + 1) * bin_w + x_min), 0), width)
            channel = (c * group_size + i * group_size // outh) * group_size \
                + j * group_size // outw
            if y0 == y1 or x0 == x1:
                continue
            patch = x[n, channel, y0:y1, x0:x1]
            y[r, c, i, j] = patch.max()
            k = int(patch.argmax())
            if gy is not None:
                gx[n, channel, y0 + k // (x1 - x0), x0 + k % (x1 - x0)] += gy[r, c, i, j]
    return y if gy is None else gx


def _outsize_pair(outsize):
    return (outsize,) * 2 if isinstance(outsize, int) else outsize[-2:]


def _distinct(shape, dtype):
    """Values in [-1, 1) at least 2/size apart, so that maxima are not near ties."""
    size = math.prod(shape)
    return (numpy.random.permutation(size).reshape(shape) * 2. / size - 1).astype(dtype)


class TestPSROIMaxPooling2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'group_size': [2], 'outsize': [(3, 2), (2, 3, 3)],
                       'dtype': [numpy.float32]})
              + product({'case': ['inside', 'partly_outside'], 'group_size': [1, 3],
                         'outsize': [4], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        return _distinct((2, 2 * self.group_size ** 2, 6, 5), self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.ps_roi_max_pooling_2d(
            x, device.send(self.rois), device.send(self.roi_indices), outsize=self.outsize,
            spatial_scale=self.scale, group_size=self.group_size),

    def forward_expected(self, inputs):
        y = ps_roi_max_pooling(inputs[0], self.rois, self.roi_indices,
                               _outsize_pair(self.outsize), self.scale, self.group_size)
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return ps_roi_max_pooling(inputs[0], self.rois, self.roi_indices,
                                  _outsize_pair(self.outsize), self.scale, self.group_size,
                                  grad_outputs[0]),


class TestPSROIMaxPooling2DTiesAndEmptyBins(FunctionTestCase):
    """Ties go to the first maximum in row-major order; bins outside the image are -inf and
    pass no gradient."""

    params = product({'dtype': FLOAT_DTYPES})
    # the numerical derivative is undefined at ties, and the outputs include -inf
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[0, 0, 6, 5], [-4, 3, 2, 9], [-9, -9, -3, -2]], numpy.float32)
        self.roi_indices = numpy.array([0, 1, 0], numpy.int32)
        x = numpy.random.uniform(-1, 1, (2, 8, 6, 5)).astype(self.dtype)
        x[0, :, :, 1:3] = 0.5
        return x,

    def forward(self, inputs, device):
        return F.ps_roi_max_pooling_2d(inputs[0], device.send(self.rois),
                                       device.send(self.roi_indices), (2, 3), 1.0, 2),

    def forward_expected(self, inputs):
        y = ps_roi_max_pooling(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2)
        assert numpy.isinf(y).any() and numpy.isfinite(y).any()
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return ps_roi_max_pooling(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0, 2,
                                  grad_outputs[0]),


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 5), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'roi_indices': numpy.array([0, 3], numpy.int32)}, ValueError,
     r'roi_indices must be in \[0, 2\)'),
    ({'spatial_scale': 0.}, ValueError, 'spatial_scale must be a positive float'),
    ({'group_size': 3}, ValueError,
     r'the channels of x must be a multiple of group_size \*\* 2 = 9, '
     r'but got x of shape \(2, 8, 6, 5\)'),
    ({'group_size': 2.}, TypeError, 'group_size must be a positive int, but got float'),
    ({'outsize': (3, 2, 2)}, ValueError,
     r'x must have outsize\[0\] \* group_size \*\* 2 = 3 \* 4 channels, '
     r'but got x of shape \(2, 8, 6, 5\)'),
    ({'outsize': (2, 0)}, ValueError, 'outsize must be a positive int or a pair'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros((2, 8, 6, 5), numpy.float32),
            'rois': numpy.ones((2, 4), numpy.float32), 'roi_indices': numpy.zeros(2, numpy.int32),
            'outsize': 2, 'spatial_scale': 1.0, 'group_size': 2}
    args.update(kwargs)
    with pytest.raises(error, match='ps_roi_max_pooling_2d: ' + message):
        F.ps_roi_max_pooling_2d(**args)
