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
    'partly_outside': ([[-1.2, -0.9, 4.3, 3.4], [3.1, 2.6, 6.4, 5.7]], [0, 1], 1.0),
    'zero_size': ([[2.3, 2.3, 2.3, 2.3], [4.1, 1.2, 4.1, 3.3], [4.2, 3.3, 1.1, 0.6]], [1, 0, 0],
                  1.0),
    'scaled': ([[1.7, 2.9, 8.3, 7.1], [0.4, 0.2, 9.6, 8.4]], [1, 0], 0.6),
    'ties_to_even': ([[2.5, 0.5, 5.5, 3.5]], [0], 1.0),
}


def bins(low, high, outsize, limit):
    """Chainer's pixel bins along one axis: [start, stop) of each of ``outsize`` bins."""
    start, stop = round(low), round(high)  # Python rounds ties to even, as NumPy
    stride = max(stop - start, 1) / outsize
    return [(min(max(math.floor(i * stride) + start, 0), limit),
             min(max(math.ceil((i + 1) * stride) + start, 0), limit)) for i in range(outsize)]


def roi_max_pooling(x, rois, roi_indices, outsize, scale, gy=None):
    """A loop over rois and bins; the output (-inf for empty bins), or with ``gy`` the gradient
    of x (to the first maximum of each bin in row-major order)."""
    _, _, height, width = x.shape
    y = numpy.full((len(rois), x.shape[1]) + outsize, -numpy.inf)
    gx = numpy.zeros(x.shape)
    for r, (roi, n) in enumerate(zip(rois, roi_indices)):
        y_min, x_min, y_max, x_max = (float(v) * scale for v in roi)
        for i, (y0, y1) in enumerate(bins(y_min, y_max, outsize[0], height)):
            for j, (x0, x1) in enumerate(bins(x_min, x_max, outsize[1], width)):
                if y0 == y1 or x0 == x1:
                    continue
                patch = x[n, :, y0:y1, x0:x1].reshape(x.shape[1], -1)
                y[r, :, i, j] = patch.max(axis=1)
                for c, k in enumerate(patch.argmax(axis=1)):
                    if gy is not None:
                        gx[n, c, y0 + k // (x1 - x0), x0 + k % (x1 - x0)] += gy[r, c, i, j]
    return y if gy is None else gx


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


def _distinct(shape, dtype):
    """Values in [-1, 1) at least 2/size apart, so that maxima are not near ties."""
    size = math.prod(shape)
    return (numpy.random.permutation(size).reshape(shape) * 2. / size - 1).astype(dtype)


class TestROIMaxPooling2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'outsize': [(3, 2), 1], 'dtype': [numpy.float32]})
              + product({'case': ['inside', 'partly_outside'], 'outsize': [2],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, indices, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        self.roi_indices = numpy.array(indices, numpy.int32)
        return _distinct(_X_SHAPE, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_max_pooling_2d(x, device.send(self.rois), device.send(self.roi_indices),
                                    outsize=self.outsize, spatial_scale=self.scale),

    def forward_expected(self, inputs):
        x, = inputs
        y = roi_max_pooling(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale)
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        return roi_max_pooling(x, self.rois, self.roi_indices, _pair(self.outsize), self.scale,
                               grad_outputs[0]),


class TestROIMaxPooling2DTiesAndEmptyBins(FunctionTestCase):
    """Ties go to the first maximum in row-major order; bins outside the image are -inf."""

    params = product({'dtype': FLOAT_DTYPES})
    # the numerical derivative is undefined at ties, and the outputs include -inf
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[0, 0, 6, 5], [-4, 3, 2, 9], [-9, -9, -3, -2]], numpy.float32)
        self.roi_indices = numpy.array([0, 1, 0], numpy.int32)
        x = numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype)
        x[0, :, :, 1:3] = 0.5
        return x,

    def forward(self, inputs, device):
        return F.roi_max_pooling_2d(inputs[0], device.send(self.rois),
                                    device.send(self.roi_indices), (2, 3), 1.0),

    def forward_expected(self, inputs):
        y = roi_max_pooling(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0)
        assert numpy.isinf(y).any()
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return roi_max_pooling(inputs[0], self.rois, self.roi_indices, (2, 3), 1.0,
                               grad_outputs[0]),


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 5), numpy.float32)}, ValueError, r'rois must have shape \(\*, 4\)'),
    ({'roi_indices': numpy.array([2, 0], numpy.int32)}, ValueError,
     r'roi_indices must be in \[0, 2\)'),
    ({'spatial_scale': 0}, ValueError, 'spatial_scale must be a positive float'),
    ({'outsize': (2, -1)}, ValueError, 'outsize must be a positive int or a pair'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros(_X_SHAPE, numpy.float32), 'rois': numpy.ones((2, 4), numpy.float32),
            'roi_indices': numpy.zeros(2, numpy.int32), 'outsize': 2, 'spatial_scale': 1.0}
    args.update(kwargs)
    with pytest.raises(error, match='roi_max_pooling_2d: ' + message):
        F.roi_max_pooling_2d(**args)
