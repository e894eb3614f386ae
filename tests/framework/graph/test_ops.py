"""The graph's own ops compute what the function nodes they replace compute: convolutions of
every geometry (channels-last, with a bias, padded, strided, dilated, grouped, depthwise,
covering all), max and average poolings, and global means, reading channels-first inputs or
channels-last convolution outputs."""

import functools
import itertools

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import initializers
from framework.functions.pooling.average_pooling_nd import average_pooling_nd
from framework.graph import ops
from framework.testing import devices
from framework.utils import conv

DTYPES = (numpy.float32, numpy.float64)


def _input(shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _ops(g, kind) -> list:
    return [op for op in g.ops if isinstance(op, kind)]


# --- convolutions -------------------------------------------------------------------------


@pytest.mark.parametrize('ksize', [1, 3, 5, 7])
@pytest.mark.parametrize('stride', [1, 2])
@pytest.mark.parametrize('pad', [0, 1, 2])
@pytest.mark.parametrize('dilate', [1, 2])
@pytest.mark.parametrize('groups, channels', [(1, (4, 6)), (2, (4, 6)), (4, (4, 4)),
                                              (4, (4, 8))],
                         ids=['dense', 'groups2', 'depthwise', 'depthwise-multiplier'])
def test_convolution_geometry(ksize, stride, pad, dilate, groups, channels, assert_compiles):
    in_channels, out_channels = channels
    if 10 + 2 * pad < dilate * (ksize - 1) + 1:
        pytest.skip('the kernel is larger than the padded input')
    rng = numpy.random.RandomState(ksize * 100 + stride * 10 + pad)
    for nobias, cover_all, dtype in itertools.product((False, True), (False, True), DTYPES):
        W = rng.standard_normal((out_channels, in_channels // groups, ksize, ksize))
        b = None if nobias else rng.standard_normal(out_channels).astype(dtype)
        x = _input((3 if cover_all else 1, in_channels, 10, 11), dtype)
        fast = assert_compiles(functools.partial(
            F.convolution_2d, W=W.astype(dtype), b=b, stride=stride, pad=pad,
            cover_all=cover_all, dilate=dilate, groups=groups), x)
        conv, = _ops(fast.graph(x), ops.Conv2D)
        assert (conv.b is None) == nobias and conv.groups == groups


@pytest.mark.parametrize('ksize, stride, pad, dilate', [(3, 1, 1, 1), (3, 2, 1, 1), (1, 2, 0, 1),
                                                 (3, 1, 2, 2), (5, 1, 2, 1)])
def test_large_columns_are_made_a_band_of_rows_at_a_time(ksize, stride, pad, dilate,
                                                          monkeypatch, assert_compiles):
    """Columns larger than COLUMN_BAND_BYTES are made and multiplied a band of output rows at a time
    (here bands of 2 rows, and of 1 where a row's columns pass the limit alone), with the
    results of the whole product and a workspace of one band."""
    rng = numpy.random.RandomState(ksize + stride)
    W = rng.standard_normal((4, 3, ksize, ksize)).astype(numpy.float32)
    b = rng.standard_normal(4).astype(numpy.float32)
    x = _input((2, 3, 10, 11))
    convolution = functools.partial(F.convolution_2d, W=W, b=b, stride=stride, pad=pad,
                                    dilate=dilate)
    monkeypatch.setattr(conv, 'MIN_BAND_POSITIONS', 1)
    for row_bands in (2, 0.5):
        out_w = (11 + 2 * pad - dilate * (ksize - 1) - 1) // stride + 1
        monkeypatch.setattr(conv, 'COLUMN_BAND_BYTES',
                            int(row_bands * out_w * 3 * ksize ** 2 * 4))
        fast = assert_compiles(convolution, x)
        op, = _ops(fast.graph(x), ops.Conv2D)
        assert op._band_rows == max(1, int(row_bands))
        assert op.workspace(fast.graph(x))['col'] == op._band_rows * out_w * 3 * ksize ** 2 * 4


def test_a_band_too_thin_for_an_efficient_product_is_not_made(monkeypatch, assert_compiles):
    """Where COLUMN_BAND_BYTES holds fewer than MIN_BAND_POSITIONS rows of columns (long windows:
    many channels, large kernels), the product stays whole."""
    W = numpy.random.RandomState(0).standard_normal((4, 3, 3, 3)).astype(numpy.float32)
    x = _input((2, 3, 10, 11))
    monkeypatch.setattr(conv, 'COLUMN_BAND_BYTES', 2 * 11 * 27 * 4)
    monkeypatch.setattr(conv, 'MIN_BAND_POSITIONS', 23)
    fast = assert_compiles(functools.partial(F.convolution_2d, W=W, pad=1), x)
    op, = _ops(fast.graph(x), ops.Conv2D)
    assert op._band_rows is None
    assert op.workspace(fast.graph(x))['col'] == 2 * 10 * 11 * 27 * 4


# --- poolings and global means ------------------------------------------------------------


class ConvThen(framework.Chain):
    """A convolution and then ``fn`` (so that ``fn`` reads a channels-last value)."""

    def __init__(self, fn, dtype=numpy.float32):
        super().__init__()
        self.fn = fn
        with self.init_scope():
            self.conv = L.Convolution2D(3, 5, 3, pad=1,
                                        initialW=initializers.LeCunNormal(dtype=dtype),
                                        initial_bias=initializers.Normal(0.5, dtype))

    def forward(self, x):
        return self.fn(self.conv(x))


def _after(source, fn, dtype=numpy.float32):
    """``fn`` of the input itself (channels-first) or of a convolution (channels-last)."""
    return fn if source == 'input' else ConvThen(fn, dtype)


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('ksize, stride, pad', [(2, None, 0), (3, 2, 0), (3, 2, 1), (3, 1, 1),
                                                (2, 2, 1), (3, 3, 2), (1, 2, 0)])
@pytest.mark.parametrize('cover_all', [True, False])
def test_max_pooling(source, ksize, stride, pad, cover_all, assert_compiles):
    x = _input((3, 3, 11, 10))
    fast = assert_compiles(_after(source, lambda h: F.max_pooling_2d(
        h, ksize, stride, pad, cover_all)), x)
    pool, = _ops(fast.graph(x), ops.Pool2D)
    assert pool.kind == 'max'


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('ksize, stride, pad', [(2, None, 0), (3, 2, 0), (3, 2, 1), (3, 1, 1),
                                                (2, 2, 1), (7, 1, 3), (2, 3, 0)])
@pytest.mark.parametrize('pad_value', [0, None])
@pytest.mark.parametrize('dtype', DTYPES)
def test_average_pooling(source, ksize, stride, pad, pad_value, dtype, assert_compiles):
    x = _input((3, 3, 11, 10), dtype)
    fast = assert_compiles(_after(source, lambda h: average_pooling_nd(
        h, ksize, stride, pad, pad_value), dtype), x)
    pool, = _ops(fast.graph(x), ops.Pool2D)
    assert pool.kind == 'average'
    if pad_value == 0:
        assert_compiles(_after(source, lambda h: F.average_pooling_2d(h, ksize, stride, pad),
                               dtype), x)


def test_max_pooling_with_windows_in_the_padding_only(assert_compiles):
    # With cover_all, the last window of a 4-wide input (k=1, s=2) starts past it.
    x = _input((1, 3, 4, 4))
    fast = assert_compiles(ConvThen(lambda h: F.max_pooling_2d(h, 1, 2, cover_all=True)), x)
    y = fast(x).array
    assert y.shape == (1, 5, 3, 3)
    assert numpy.isneginf(y[:, :, -1]).all() and numpy.isneginf(y[:, :, :, -1]).all()


def _ties(shape, seed=0):
    """An input of few distinct values, so that windows hold equal maxima."""
    return numpy.random.RandomState(seed).randint(-2, 3, shape).astype(numpy.float32)


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('ksize, stride, pad, cover_all, lowered', [
    (2, None, 0, True, True), (2, None, 0, False, True), (3, None, 0, True, True),
    (2, 3, 0, True, True), (2, None, 1, True, True), (3, 2, 1, True, False)],
    ids=['2x2', '2x2-cut', '3x3', 'gaps', 'padded', 'overlapping'])
def test_max_pooling_indices_and_the_upsampling_by_them(source, ksize, stride, pad, cover_all,
                                                        lowered, assert_compiles):
    # SegNet's pair: the indices are a value of the graph, computed for every input.
    def unpool(h):
        y, indexes = F.max_pooling_2d(h, ksize, stride, pad, cover_all, return_indices=True)
        return F.upsampling_2d(y, indexes, ksize, stride, pad, outsize=h.shape[2:],
                               cover_all=cover_all)

    fn = _after(source, unpool)
    x = _ties((2, 3, 11, 10))
    fast = assert_compiles(fn, x)
    g = fast.graph(x)
    assert len(_ops(g, ops.Unpool2D)) == int(lowered)
    pool, = _ops(g, ops.Pool2D)
    assert len(pool.outputs) == 2
    other = _ties((2, 3, 11, 10), seed=1)  # other maxima elsewhere: nothing was frozen
    expected = fn(other).array
    numpy.testing.assert_allclose(fast(other).array, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_max_pooling_indices_and_the_upsampling_on_each_device(device, assert_compiles):
    def unpool(h):
        y, indexes = F.max_pooling_2d(h, 2, return_indices=True)
        return F.upsampling_2d(y, indexes, 2, outsize=h.shape[2:])

    model = ConvThen(unpool)
    model.to_device(device)
    fast = assert_compiles(model, device.send(_ties((2, 3, 9, 8))))
    assert len(_ops(fast.graph(device.send(_ties((2, 3, 9, 8)))), ops.Unpool2D)) == 1


def test_the_max_pooling_indices_are_an_output_as_eager_returns_them():
    x = _ties((2, 3, 9, 8))

    def pool(h):
        return F.max_pooling_2d(h, 2, return_indices=True)[1]

    fast = framework.graph.compile(pool)
    with framework.using_config('train', False):
        expected = pool(x)
    indexes = fast(x).array
    assert indexes.dtype == expected.dtype == numpy.intp
    numpy.testing.assert_array_equal(indexes, expected)
    g = fast.graph(x)
    assert [op.describe() for op in g.ops if isinstance(op, ops.Pool2D)] == [
        'Pool2D max 2x2/2 with indices']


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('keepdims', [False, True])
@pytest.mark.parametrize('dtype', DTYPES)
def test_global_mean(source, keepdims, dtype, assert_compiles):
    x = _input((2, 3, 7, 6), dtype)
    fn = _after(source, lambda h: F.mean(h, axis=(2, 3), keepdims=keepdims), dtype)
    g = assert_compiles(fn, x).graph(x)
    mean, = _ops(g, ops.GlobalMean)
    assert mean.keepdims == keepdims
    assert not _ops(g, ops.Transpose)[1:]  # at most the input's, none for the output


# --- joins and resampling -----------------------------------------------------------------


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('dtype', DTYPES)
def test_concat_along_the_channels(source, dtype, assert_compiles):
    x = _input((2, 3, 5, 4), dtype)
    other = _input((2, 2, 5, 4), dtype, seed=1)
    fast = assert_compiles(_after(source, lambda h: F.concat(
        [h, F.relu(h), other], axis=1), dtype), x)
    g = fast.graph(x)
    assert len(_ops(g, ops.Concat)) == 1
    # The join reads the convolution's channels-last output as it is; only the graph's output
    # goes back to channels-first.
    assert len(_ops(g, ops.Transpose)) == (0 if source == 'input' else 2)


@pytest.mark.parametrize('first', ['small', 'large'])
def test_a_join_takes_the_layout_of_most_of_its_elements(first, assert_compiles):
    # A channels-first value of 3 channels (tanh, a node) beside a convolution's 5 channels
    # (channels-last), in either order: the join is channels-last, only the 3 channels move.
    def join(h, x):
        parts = [F.tanh(x), h]
        return F.concat(parts if first == 'small' else parts[::-1], axis=1)

    conv = ConvThen(lambda h: h)
    x = _input((2, 3, 5, 4))
    g = assert_compiles(lambda x: join(conv(x), x), x).graph(x)
    concat, = _ops(g, ops.Concat)
    assert concat.in_layouts == ['nhwc', 'nhwc']
    assert [g.values[op.inputs[0]].shape[1] for op in _ops(g, ops.Transpose)] == [3, 3, 8]


@pytest.mark.parametrize('source', ['input', 'conv'])
@pytest.mark.parametrize('out_size', [(9, 7), (3, 2), (5, 4)])
@pytest.mark.parametrize('mode, align_corners', [('bilinear', True), ('bilinear', False),
                                                 ('nearest', True)])
@pytest.mark.parametrize('dtype', DTYPES)
def test_resize_images(source, out_size, mode, align_corners, dtype, assert_compiles):
    x = _input((2, 3, 5, 4), dtype)
    fast = assert_compiles(_after(source, lambda h: F.resize_images(
        h, out_size, mode=mode, align_corners=align_corners), dtype), x)
    g = fast.graph(x)
    resample, = _ops(g, ops.Resample)
    assert resample.in_layouts == ['nchw' if source == 'input' else 'nhwc']


def test_a_pyramid_pooling_runs_channels_last_from_end_to_end(assert_compiles):
    # PSPNet's join: the features, and each pooled, convolved and upsampled back, side by side.
    class Pyramid(framework.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.conv = L.Convolution2D(3, 4, 3, pad=1)
                self.branches = framework.ChainList(
                    *[L.Convolution2D(4, 2, 1) for _ in range(2)])
                self.out = L.Convolution2D(8, 3, 1)

        def forward(self, x):
            h = self.conv(x)
            ys = [h] + [F.resize_images(branch(F.average_pooling_2d(h, k, k)), h.shape[2:])
                        for k, branch in zip((2, 4), self.branches)]
            return self.out(F.relu(F.concat(ys, axis=1)))

    x = _input((2, 3, 8, 8))
    g = assert_compiles(Pyramid(), x).graph(x)
    assert len(_ops(g, ops.Transpose)) == 2  # the input's and the output's


@pytest.mark.parametrize('batch, level, expected', [
    (1, 'auto', False), (1, 'always', True), (2, 'auto', True), (2, 'never', False),
])
def test_a_convolution_goes_to_cudnn_where_it_is_the_faster(monkeypatch, batch, level,
                                                            expected):
    """On a GPU with cuDNN: a batch of images goes to cuDNN under 'auto', a single image's
    convolutions only under 'always' (the graph's own kernels were the faster at batch 1)."""
    from types import SimpleNamespace

    from framework.cuda import cudnn
    from framework.graph.graph import Value
    monkeypatch.setattr(ops, 'is_cupy', lambda xp: True)
    monkeypatch.setattr(cudnn, 'is_available', lambda: True)
    W = numpy.zeros((4, 3, 3, 3), numpy.float32)
    graph = SimpleNamespace(xp=numpy, values=[Value((batch, 3, 8, 8), numpy.float32),
                                              Value((batch, 4, 8, 8), numpy.float32)])
    op = ops.Conv2D([0], [1], W, None, (1, 1), (1, 1), (1, 1), 1)
    with framework.using_config('use_cudnn', level):
        assert op._uses_cudnn(graph) == expected
        assert (op.workspace(graph) == {}) == expected
