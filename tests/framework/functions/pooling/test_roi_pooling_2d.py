import math

import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_X_SHAPE = (2, 3, 6, 5)
# name: (rois as (batch_index, x_min, y_min, x_max, y_max), spatial_scale)
_CASES = {
    'inside': ([[0, 0.7, 1.1, 3.9, 4.3], [1, 1.3, 0.2, 4.6, 5.1]], 1.0),
    'borders': ([[1, 0, 0, 8, 10], [0, 6, 0, 8, 10], [1, 0, 9.9, 8, 10]], 0.5),
    'partly_outside': ([[0, -1.4, -0.6, 3.2, 4.4], [1, 2.6, 3.1, 5.7, 6.4]], 1.0),
    'zero_size': ([[1, 2.3, 2.3, 2.3, 2.3], [0, 1.2, 4.1, 3.3, 4.1]], 1.0),
    'scaled': ([[1, 2.9, 1.7, 7.1, 8.3], [0, 0.2, 0.4, 8.4, 9.6]], 0.6),
    'ties_to_even': ([[0.9, 0.5, 2.5, 3.5, 5.5]], 1.0),
}


def bins(low, high, outsize, limit):
    """Chainer's legacy pixel bins along one axis: [start, stop) of each of ``outsize`` bins."""
    start, stop = round(low), round(high)  # Python rounds ties to even, as NumPy
    stride = max(stop - start + 1, 1) / outsize
    return [(min(max(math.floor(i * stride) + start, 0), limit),
             min(max(math.ceil((i + 1) * stride) + start, 0), limit)) for i in range(outsize)]


def roi_pooling(x, rois, outsize, scale, gy=None):
    """A loop over rois and bins; the output (0 for empty bins), or with ``gy`` the gradient of x
    (to the first maximum of each bin, none for rois whose max rounds below their min)."""
    _, _, height, width = x.shape
    y = numpy.zeros((len(rois), x.shape[1]) + outsize)
    gx = numpy.zeros(x.shape)
    for r, roi in enumerate(rois):
        n = int(roi[0])
        x_min, y_min, x_max, y_max = (float(v) * scale for v in roi[1:])
        in_order = round(x_max) >= round(x_min) and round(y_max) >= round(y_min)
        for i, (y0, y1) in enumerate(bins(y_min, y_max, outsize[0], height)):
            for j, (x0, x1) in enumerate(bins(x_min, x_max, outsize[1], width)):
                if y0 == y1 or x0 == x1:
                    continue
                patch = x[n, :, y0:y1, x0:x1].reshape(x.shape[1], -1)
                y[r, :, i, j] = patch.max(axis=1)
                for c, k in enumerate(patch.argmax(axis=1)):
                    if gy is not None and in_order:
                        gx[n, c, y0 + k // (x1 - x0), x0 + k % (x1 - x0)] += gy[r, c, i, j]
    return y if gy is None else gx


def _distinct(shape, dtype):
    """Values in [-1, 1) at least 2/size apart, so that maxima are not near ties."""
    size = math.prod(shape)
    return (numpy.random.permutation(size).reshape(shape) * 2. / size - 1).astype(dtype)


class TestROIPooling2D(FunctionTestCase):
    params = (product({'case': list(_CASES), 'outsize': [(3, 2), (1, 1)],
                       'dtype': [numpy.float32]})
              + product({'case': ['inside', 'partly_outside'], 'outsize': [(2, 2)],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        rois, self.scale = _CASES[self.case]
        self.rois = numpy.array(rois, self.dtype)
        return _distinct(_X_SHAPE, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_pooling_2d(x, device.send(self.rois), outh=self.outsize[0],
                                outw=self.outsize[1], spatial_scale=self.scale),

    def forward_expected(self, inputs):
        return roi_pooling(inputs[0], self.rois, self.outsize, self.scale).astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return roi_pooling(inputs[0], self.rois, self.outsize, self.scale, grad_outputs[0]),


class TestROIPooling2DInverted(TestROIPooling2D):
    """A roi whose max rounds below its min pools a 1x1 region but gets no gradient (Chainer)."""

    params = product({'outsize': [(3, 2), (1, 1)], 'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # the gradient is not the derivative here, by design

    def generate_inputs(self):
        self.scale = 1.0
        self.rois = numpy.array([[0, 3.3, 4.2, 0.6, 1.1], [1, 0.6, 1.1, 3.3, 4.2]], self.dtype)
        return _distinct(_X_SHAPE, self.dtype),


class TestROIPooling2DTiesAndEmptyBins(FunctionTestCase):
    """Ties go to the first maximum in row-major order; bins outside the image are 0."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # the numerical derivative is undefined at ties
    skip_double_backward_test = True

    def generate_inputs(self):
        self.rois = numpy.array([[0, 0, 0, 4, 5], [1, 3, -4, 9, 2], [0, -9, -9, -2, -3]],
                                numpy.float32)
        x = numpy.random.uniform(-1, 1, _X_SHAPE).astype(self.dtype)
        x[0, :, :, 1:3] = 0.5
        return x,

    def forward(self, inputs, device):
        return F.roi_pooling_2d(inputs[0], device.send(self.rois), 2, 3, 1.0),

    def forward_expected(self, inputs):
        y = roi_pooling(inputs[0], self.rois, (2, 3), 1.0)
        return y.astype(self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        return roi_pooling(inputs[0], self.rois, (2, 3), 1.0, grad_outputs[0]),


def test_rois_are_x_first_as_chainercv_calls_it():
    """ChainerCV's Faster R-CNN passes ``(index, x_min, y_min, x_max, y_max)``, reordered from
    its ``(y_min, x_min, y_max, x_max)`` boxes."""
    x = numpy.arange(30, dtype=numpy.float32).reshape(1, 1, 6, 5)
    boxes = numpy.array([[1, 0, 4, 1]], numpy.float32)  # rows 1-4, columns 0-1
    indices_and_rois = numpy.concatenate([numpy.zeros((1, 1), numpy.float32), boxes], axis=1)
    y = F.roi_pooling_2d(x, indices_and_rois[:, [0, 2, 1, 4, 3]], 1, 1, 1.0)
    numpy.testing.assert_array_equal(y.array, [[[[21.]]]])  # x[0, 0, 4, 1]


@pytest.mark.parametrize('kwargs, error, message', [
    ({'rois': numpy.ones((2, 4), numpy.float32)}, ValueError,
     r'rois must have shape \(\*, 5\), but got shape \(2, 4\)'),
    ({'rois': numpy.array([[2, 0, 0, 1, 1]], numpy.float32)}, ValueError,
     r'the batch indices rois\[:, 0\] must be in \[0, 2\), the batch of x of shape '
     r'\(2, 3, 6, 5\), but got values from 2 to 2'),
    ({'spatial_scale': -1}, ValueError, 'spatial_scale must be a positive float'),
    ({'outh': 0}, ValueError, 'outh must be positive, but got 0'),
    ({'outw': 1.5}, TypeError, 'outw must be an int, but got float'),
])
def test_bad_input(kwargs, error, message):
    args = {'x': numpy.zeros(_X_SHAPE, numpy.float32), 'rois': numpy.ones((2, 5), numpy.float32),
            'outh': 2, 'outw': 2, 'spatial_scale': 1.0}
    args.update(kwargs)
    with pytest.raises(error, match='roi_pooling_2d: ' + message):
        F.roi_pooling_2d(**args)
