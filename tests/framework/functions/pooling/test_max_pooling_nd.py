import numpy
import pytest

import framework.functions as F
from framework import Variable, backend, grad, no_backprop_mode
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


def _distinct(shape, dtype):
    """Values in [-1, 1) at least 2 / size apart: no ties, even in float16."""
    size = int(numpy.prod(shape))
    values = numpy.random.permutation(size) * (2.0 / size) - 1
    return values.reshape(shape).astype(dtype)


def _reference(x, ksize, stride, pad, cover_all):
    """Max pooling by a loop over the outputs: the maxima and their first window indices."""
    n = x.ndim - 2
    out = tuple((d + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1
                for d, k, s, p in zip(x.shape[2:], ksize, stride, pad))
    padded = numpy.full(x.shape[:2] + tuple(d + 2 * p + s + k for d, k, s, p in
                                            zip(x.shape[2:], ksize, stride, pad)), -numpy.inf)
    padded[(slice(None),) * 2 + tuple(slice(p, p + d) for p, d in zip(pad, x.shape[2:]))] = x
    y = numpy.empty(x.shape[:2] + out, x.dtype)
    indexes = numpy.empty(x.shape[:2] + out, numpy.intp)
    for o in numpy.ndindex(*out):
        window = padded[(slice(None),) * 2 + tuple(
            slice(o[i] * stride[i], o[i] * stride[i] + ksize[i]) for i in range(n))]
        flat = window.reshape(x.shape[:2] + (-1,))
        y[(slice(None),) * 2 + o] = flat.max(axis=-1)
        indexes[(slice(None),) * 2 + o] = flat.argmax(axis=-1)
    return y, indexes


# (shape, ksize, stride, pad, cover_all): overlapping, cover_all extending the output, stride
# other than ksize, rectangular windows, stride 1 without padding, global and large
# non-overlapping windows, padded or not (processed all at once), more than 127 offsets.
_CONFIGS_2D = [
    ((2, 3, 7, 6), 3, 2, 1, True),
    ((2, 3, 7, 6), 3, 2, 1, False),
    ((2, 2, 5, 7), 2, None, 0, True),
    ((2, 2, 5, 7), 2, None, 0, False),
    ((1, 2, 6, 7), (2, 3), (1, 2), (1, 0), True),
    ((1, 3, 5, 6), 3, 1, 0, False),
    ((2, 3, 7, 6), (7, 6), None, 0, True),
    ((1, 2, 8, 8), 4, None, 0, False),
    ((1, 2, 5, 5), 3, None, 1, False),
    ((1, 2, 13, 13), 12, 1, 0, False),
]


class TestMaxPooling2D(FunctionTestCase):
    params = product({'config': _CONFIGS_2D, 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _distinct(self.config[0], self.dtype),

    def forward(self, inputs, device):
        _, ksize, stride, pad, cover_all = self.config
        return F.max_pooling_2d(inputs[0], ksize, stride, pad, cover_all),

    def forward_expected(self, inputs):
        _, ksize, stride, pad, cover_all = self.config
        ksize, stride, pad = (_pair(v) for v in (ksize, stride or ksize, pad))
        return _reference(inputs[0], ksize, stride, pad, cover_all)[0],


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


class TestMaxPoolingND(FunctionTestCase):
    """1-D and 3-D, through the named functions and max_pooling_nd."""

    params = product({
        'case': [('max_pooling_1d', (2, 3, 9), (3,), (2,), (1,)),
                 ('max_pooling_nd', (2, 3, 9), (4,), (4,), (0,)),
                 ('max_pooling_3d', (1, 2, 4, 5, 3), (2, 3, 2), (2, 2, 1), (1, 0, 0)),
                 ('max_pooling_nd', (1, 2, 4, 5, 3), (2, 2, 2), (1, 1, 1), (0, 0, 0))],
        'cover_all': [True, False],
        'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _distinct(self.case[1], self.dtype),

    def forward(self, inputs, device):
        name, _, ksize, stride, pad = self.case
        return getattr(F, name)(inputs[0], ksize, stride, pad, cover_all=self.cover_all),

    def forward_expected(self, inputs):
        _, _, ksize, stride, pad = self.case
        return _reference(inputs[0], ksize, stride, pad, self.cover_all)[0],


class TestMaxPoolingTies(FunctionTestCase):
    """Equal elements in a window: the gradient goes to the first one (row-major), as in
    Chainer; the padding never wins."""

    params = product({'config': [((1, 2, 4, 4), 2, 2, 0), ((2, 1, 5, 5), 3, 2, 1)],
                      'dtype': FLOAT_DTYPES})
    # At ties the function is not differentiable; backward_expected checks the gradient exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        shape = self.config[0]
        # Constant rows: every window holds ties (along the width at least).
        return numpy.broadcast_to(numpy.arange(shape[2])[:, None] % 2, shape).astype(self.dtype),

    def forward(self, inputs, device):
        _, ksize, stride, pad = self.config
        return F.max_pooling_2d(inputs[0], ksize, stride, pad),

    def forward_expected(self, inputs):
        _, ksize, stride, pad = self.config
        return _reference(inputs[0], (ksize,) * 2, (stride,) * 2, (pad,) * 2, True)[0],

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        _, k, s, p = self.config
        gx = numpy.zeros_like(x)
        for n, c, oy, ox in numpy.ndindex(*gy.shape):
            rows = range(max(oy * s - p, 0), min(oy * s - p + k, x.shape[2]))
            top = max(rows, key=lambda r: (x[n, c, r, 0], -r))  # the first maximal row
            gx[n, c, top, max(ox * s - p, 0)] += gy[n, c, oy, ox]
        return gx,


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('cover_all', [True, False])
def test_return_indices(device, cover_all):
    numpy.random.seed(0)
    x = numpy.random.randint(0, 3, (2, 3, 7, 6)).astype(numpy.float32)  # many ties
    y, indexes = F.max_pooling_2d(device.send(x), 3, 2, 1, cover_all, return_indices=True)
    expected_y, expected_indexes = _reference(x, (3, 3), (2, 2), (1, 1), cover_all)
    assert isinstance(y, Variable)
    assert backend.get_device_from_array(indexes) == device
    assert indexes.dtype.kind == 'i'
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), expected_y)
    numpy.testing.assert_array_equal(backend.to_cpu(indexes), expected_indexes)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_backward_twice_reuses_indices(device):
    x = Variable(device.send(_distinct((1, 2, 5, 5), numpy.float64)))
    y = F.max_pooling_2d(x, 3, 2, 1)
    gy = device.send(numpy.ones(y.shape))
    first, = grad([y], [x], [gy], retain_graph=True)
    second, = grad([y], [x], [gy])
    numpy.testing.assert_array_equal(backend.to_cpu(first.array), backend.to_cpu(second.array))
    assert float(first.array.sum()) == y.size


@pytest.mark.parametrize('device', devices(), ids=str)
def test_without_graph(device):
    """Arrays, and Variables without backprop, are pooled without finding the indices."""
    x = _distinct((2, 3, 7, 6), numpy.float32)
    expected, _ = _reference(x, (3, 3), (2, 2), (1, 1), True)
    y = F.max_pooling_2d(device.send(x), 3, 2, 1)
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), expected)
    assert y.creator_node is None
    with no_backprop_mode():
        y = F.max_pooling_2d(Variable(device.send(x)), 3, 2, 1)
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), expected)
    assert y.creator_node is None


def _pairs(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


@pytest.mark.parametrize('config', _CONFIGS_2D + [
    ((1, 2, 1, 6), 1, (1, 4), 0, True),  # a window in the padding only: -inf
    ((1, 2, 4, 5, 3), (2, 3, 2), (2, 2, 1), (1, 0, 0), True),
    ((2, 3, 9), 3, 2, 1, False),
    ((1, 1, 4, 4), 3, 1, 2, True),  # padding wider than a stride
])
@pytest.mark.parametrize('device', devices(), ids=str)
def test_without_graph_every_config(config, device):
    """The maxima found without indices (one axis at a time) are those of the reference,
    -inf, nan and ties included."""
    shape, ksize, stride, pad, cover_all = config
    n = len(shape) - 2
    ksize = _pairs(ksize, n)
    stride = ksize if stride is None else _pairs(stride, n)
    pad = _pairs(pad, n)
    x = _distinct(shape, numpy.float32)
    x.reshape(-1)[::5] = x.reshape(-1)[::7].max()
    x.reshape(-1)[3::11] = -numpy.inf
    x.reshape(-1)[6::13] = numpy.nan
    expected, _ = _reference(x, ksize, stride, pad, cover_all)
    y = F.max_pooling_nd(device.send(x), ksize, stride, pad, cover_all)
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), expected)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_window_of_padding_only(device):
    """cover_all can add a window that lies in the padding: its maximum is -inf, as in
    Chainer, and neither its gradient nor upsampling spreads inf or nan to the input."""
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 2, 1, 6)
    xv = Variable(device.send(x))
    y, indexes = F.max_pooling_2d(xv, (1, 1), (1, 4), cover_all=True, return_indices=True)
    numpy.testing.assert_array_equal(backend.to_cpu(y.array)[:, :, 0],
                                     [[[0, 4, -numpy.inf], [6, 10, -numpy.inf]]])
    gx, = grad([y], [xv], [device.send(numpy.ones(y.shape, numpy.float32))])
    expected = numpy.zeros_like(x)
    expected[..., [0, 4]] = 1
    numpy.testing.assert_array_equal(backend.to_cpu(gx.array), expected)
    up = F.upsampling_2d(y, indexes, (1, 1), (1, 4), outsize=(1, 6))
    numpy.testing.assert_array_equal(backend.to_cpu(up.array), expected * x)


def test_rejects_integer_input():
    with pytest.raises(TypeError, match='max_pooling_2d: x must be a floating-point array, '
                                        'but got dtype int32'):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)


def test_rejects_wrong_number_of_axes():
    with pytest.raises(ValueError, match=r'max_pooling_2d: x must be 4-dimensional, but got '
                                         r'shape \(2, 3, 4\)'):
        F.max_pooling_2d(numpy.zeros((2, 3, 4), numpy.float32), 2)
    with pytest.raises(ValueError, match=r'max_pooling_3d: x must be 5-dimensional, but got '
                                         r'shape \(2, 3, 4, 4\)'):
        F.max_pooling_3d(numpy.zeros((2, 3, 4, 4), numpy.float32), 2)
    with pytest.raises(ValueError, match=r'max_pooling_nd: x must have at least 3 dimensions, '
                                         r'but got shape \(2, 3\)'):
        F.max_pooling_nd(numpy.zeros((2, 3), numpy.float32), 2)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'ksize': (2, 2, 2)}, ValueError,
     r'max_pooling_2d: ksize must be an int or a sequence of 2 ints \(one per spatial axis of '
     r'x\), but got \(2, 2, 2\)'),
    ({'ksize': 0}, ValueError, 'max_pooling_2d: ksize must be positive, but got 0'),
    ({'ksize': 2.0}, TypeError, 'max_pooling_2d: ksize must be an int or a sequence of 2 ints, '
                                'but got 2.0'),
    ({'ksize': 2, 'stride': (1, 0)}, ValueError,
     r'max_pooling_2d: stride must be positive, but got \(1, 0\)'),
    ({'ksize': 2, 'pad': -1}, ValueError, 'max_pooling_2d: pad must be non-negative, but got -1'),
    ({'ksize': 5, 'cover_all': False}, ValueError,
     r'max_pooling_2d: the windows \(ksize \(5, 5\), stride \(5, 5\), pad \(0, 0\)\) do not fit '
     r'in the spatial size \(4, 4\) of the input: the output size would be \(0, 0\)'),
])
def test_rejects_bad_windows(kwargs, error, message):
    with pytest.raises(error, match=message):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), **kwargs)
