"""cuDNN's convolutions (framework.cuda.cudnn): the three directions equal the array kernels'
results for every geometry the zoo uses, the configuration decides who computes, and what
cuDNN cannot take stays with the array kernels."""

import numpy
import pytest

from framework import config, using_config
from framework.cuda import cudnn
from framework.functions.connection import _kernels
from framework.testing import attr

needs_cudnn = pytest.mark.skipif(
    not cudnn.is_available(),
    reason="needs cuDNN (pip install -e '.[gpu]' brings it)")


def test_the_configuration_names_the_entry_and_the_levels_when_it_is_wrong():
    with using_config('use_cudnn', 'sometimes'):
        with pytest.raises(ValueError, match=r"use_cudnn must be 'always', 'auto' or 'never', "
                                             r"but got 'sometimes'"):
            cudnn.should_use_cudnn()
    with using_config('use_cudnn_tensor_core', True):
        with pytest.raises(ValueError, match='use_cudnn_tensor_core'):
            cudnn._allows_tensor_cores(numpy.dtype(numpy.float32))


def test_the_defaults_are_chainers():
    assert config.use_cudnn == 'auto'
    assert config.use_cudnn_tensor_core == 'auto'


@pytest.mark.parametrize('configured, level, expected', [
    ('always', '>=auto', True), ('auto', '>=auto', True), ('never', '>=auto', False),
    ('always', '==always', True), ('auto', '==always', False), ('never', '==always', False),
])
def test_should_use_cudnn_reads_the_configuration_as_chainer_does(monkeypatch, configured,
                                                                 level, expected):
    monkeypatch.setattr(cudnn, 'is_available', lambda: True)
    with using_config('use_cudnn', configured):
        assert cudnn.should_use_cudnn(level) == expected


def test_without_cudnn_nothing_asks_for_it_successfully(monkeypatch):
    monkeypatch.setattr(cudnn, 'is_available', lambda: False)
    with using_config('use_cudnn', 'always'):
        assert not cudnn.should_use_cudnn('==always')


def test_an_unknown_level_is_named():
    with pytest.raises(ValueError, match=r"'>=auto' or '==always', but got 'auto'"):
        cudnn.should_use_cudnn('auto')


@pytest.mark.parametrize('dtype, level, expected', [
    (numpy.float32, 'auto', False),
    (numpy.float32, 'always', True),
    (numpy.float32, 'never', False),
    (numpy.float16, 'auto', True),
    (numpy.float16, 'never', False),
    (numpy.float64, 'always', False),
])
def test_tensor_cores_only_where_the_configuration_lets_them(dtype, level, expected):
    with using_config('use_cudnn_tensor_core', level):
        assert cudnn._allows_tensor_cores(numpy.dtype(dtype)) == expected


def test_alignment_is_the_pointers_up_to_16_bytes():
    assert [cudnn._alignment(p) for p in (0x7f0000000200, 0x7f0000000204, 0x7f0000000208,
                                          0x7f0000000202)] == [16, 4, 8, 2]


@pytest.mark.parametrize('arrays, out_shape, cover_all, expected', [
    (((2, 3, 8, 8), (4, 3, 3, 3)), (2, 4, 6, 6), (False, False), True),
    (((2, 3, 8), (4, 3, 3)), (2, 4, 6), (False,), True),
    (((2, 3, 4, 8, 8), (4, 3, 1, 3, 3)), (2, 4, 4, 6, 6), (False,) * 3, True),
    (((2, 3, 8, 8), (4, 3, 3, 3)), (2, 4, 6, 6), (True, True), False),
    (((2, 3, 2, 2, 8, 8), (4, 3, 1, 1, 3, 3)), (2, 4, 2, 2, 6, 6), (False,) * 4, False),
    (((0, 3, 8, 8), (4, 3, 3, 3)), (0, 4, 6, 6), (False, False), False),
])
def test_supports_the_geometries_cudnn_takes(arrays, out_shape, cover_all, expected):
    arrays = [numpy.zeros(shape, numpy.float32) for shape in arrays]
    assert cudnn.supports(arrays, out_shape, cover_all) == expected


def test_supports_one_float_dtype_alone():
    x = numpy.zeros((1, 2, 4, 4), numpy.float32)
    assert not cudnn.supports([x, numpy.zeros((2, 2, 1, 1), numpy.float64)], (1, 2, 4, 4),
                              (False, False))
    assert not cudnn.supports([x.astype(numpy.int32), numpy.zeros((2, 2, 1, 1), numpy.int32)],
                              (1, 2, 4, 4), (False, False))


def test_a_one_dimensional_array_is_described_as_two_dimensional_of_height_1():
    x = numpy.zeros((2, 3, 7), numpy.float32)
    assert cudnn._described(x, True) == ((2, 3, 1, 7), (21, 7, 7, 1))
    channels_last = numpy.zeros((2, 7, 3), numpy.float32).transpose(0, 2, 1)
    assert cudnn._described(channels_last, True) == ((2, 3, 1, 7), (21, 1, 21, 3))
    assert cudnn._described(numpy.zeros((2, 3, 4, 5), numpy.float64), False) == (
        (2, 3, 4, 5), (60, 20, 5, 1))


def test_an_axis_of_size_1_is_described_by_its_layout_whatever_stride_it_holds():
    x = numpy.lib.stride_tricks.as_strided(numpy.zeros(30, numpy.float32), (2, 3, 1, 5),
                                           (60, 20, 999, 4))
    assert x.flags.c_contiguous
    assert cudnn._described(x, False) == ((2, 3, 1, 5), (15, 5, 5, 1))


# On a GPU: (x shape, W shape, stride, pad, dilate, groups).
_GEOMETRIES = [
    ((2, 3, 9, 11), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((2, 4, 9, 11), (6, 2, 3, 2), (2, 1), (0, 2), (1, 1), 2),
    ((1, 8, 12, 12), (8, 1, 3, 3), (2, 2), (1, 1), (1, 1), 8),
    ((2, 3, 13, 13), (5, 3, 3, 3), (1, 1), (2, 2), (2, 2), 1),
    ((3, 16, 7, 7), (32, 16, 1, 1), (1, 1), (0, 0), (1, 1), 1),
    ((2, 6, 15), (4, 6, 5), (2,), (2,), (1,), 1),
    ((1, 2, 5, 6, 7), (3, 2, 3, 1, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 1),
]


def _cudnn_and_array_kernels(cudnn_fn, kernels_fn, *arrays):
    """``cudnn_fn``'s result (which must not be None: cuDNN planned the geometry) and the
    array kernels' on the same GPU."""
    import cupy
    on_gpu = [cupy.asarray(a) for a in arrays]
    by_cudnn = cudnn_fn(*on_gpu)
    assert by_cudnn is not None, 'cuDNN offered no plan'
    with using_config('use_cudnn', 'never'):
        expected = kernels_fn(*on_gpu)
    return cupy.asnumpy(by_cudnn), cupy.asnumpy(expected)


def _tolerance(dtype):
    return {numpy.float16: 3e-2, numpy.float32: 1e-4, numpy.float64: 1e-10}[dtype]


@attr.gpu
@needs_cudnn
@pytest.mark.parametrize('geometry', _GEOMETRIES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_the_three_directions_equal_the_array_kernels(geometry, dtype):
    x_shape, w_shape, stride, pad, dilate, groups = geometry
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, x_shape).astype(dtype)
    W = rng.uniform(-1, 1, w_shape).astype(dtype)
    no_cover = (False,) * len(stride)
    y, expected = _cudnn_and_array_kernels(
        lambda x, W: cudnn.convolution_forward(x, W, pad, stride, dilate),
        lambda x, W: _kernels.convolve(x, W, stride, pad, no_cover, dilate, groups), x, W)
    tol = _tolerance(dtype)
    numpy.testing.assert_allclose(y, expected, rtol=tol, atol=tol * w_shape[1] * 9)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gx, expected = _cudnn_and_array_kernels(
        lambda gy, W: cudnn.convolution_backward_data(W, gy, x_shape, pad, stride, dilate),
        lambda gy, W: _kernels.deconvolve(gy, W, stride, pad, x_shape[2:], dilate, groups),
        gy, W)
    assert gx.shape == x_shape
    numpy.testing.assert_allclose(gx, expected, rtol=tol, atol=tol * w_shape[0] * 9)
    gW, expected = _cudnn_and_array_kernels(
        lambda x, gy: cudnn.convolution_backward_filter(x, gy, w_shape, pad, stride, dilate),
        lambda x, gy: _kernels.convolve_grad_weight(x, gy, w_shape[2:], stride, pad, no_cover,
                                                    dilate, groups, dtype), x, gy)
    assert gW.shape == w_shape
    numpy.testing.assert_allclose(gW, expected, rtol=tol,
                                  atol=tol * numpy.prod(y.shape) / y.shape[1])


@attr.gpu
@needs_cudnn
@pytest.mark.parametrize('autotune', [False, True])
def test_the_convolutions_go_to_cudnn_unless_told_not_to(autotune):
    import cupy
    x = cupy.ones((2, 8, 9, 9), numpy.float32)
    W = cupy.ones((4, 8, 3, 3), numpy.float32)
    cudnn._plans.clear()
    with using_config('autotune', autotune):
        y = _kernels.convolve(x, W, (1, 1), (1, 1), (False, False), (1, 1), 1)
        _kernels.deconvolve(y, W, (1, 1), (1, 1), (9, 9), (1, 1), 1)
        _kernels.convolve_grad_weight(x, y, (3, 3), (1, 1), (1, 1), (False, False), (1, 1), 1,
                                      numpy.float32)
    assert sorted(key[1] for key in cudnn._plans) == ['backward_data', 'backward_filter',
                                                       'forward']
    assert all(plan is not None and plan.plan for plan in cudnn._plans.values())
    assert float(y[0, 0, 4, 4]) == 72 and float(y[0, 0, 0, 0]) == 32


@attr.gpu
@needs_cudnn
def test_channels_last_and_strided_inputs_give_the_same_convolution():
    import cupy
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (2, 5, 9, 8)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (4, 5, 3, 3)).astype(numpy.float32)
    expected = cupy.asnumpy(cudnn.convolution_forward(cupy.asarray(x), cupy.asarray(W),
                                                      (1, 1), (1, 1), (1, 1)))
    channels_last = cupy.asarray(x.transpose(0, 2, 3, 1).copy()).transpose(0, 3, 1, 2)
    strided = cupy.asarray(numpy.repeat(x, 2, axis=3))[..., ::2]
    for view in (channels_last, strided):
        y = cudnn.convolution_forward(view, cupy.asarray(W), (1, 1), (1, 1), (1, 1))
        assert y.flags.c_contiguous
        numpy.testing.assert_allclose(cupy.asnumpy(y), expected, rtol=1e-5, atol=1e-5)


@attr.gpu
@needs_cudnn
def test_tf32_tensor_cores_stay_within_tf32s_precision():
    import cupy
    rng = numpy.random.RandomState(2)
    x = cupy.asarray(rng.uniform(-1, 1, (4, 64, 16, 16)).astype(numpy.float32))
    W = cupy.asarray(rng.uniform(-1, 1, (64, 64, 3, 3)).astype(numpy.float32))
    exact = cudnn.convolution_forward(x, W, (1, 1), (1, 1), (1, 1))
    with using_config('use_cudnn_tensor_core', 'always'):
        fast = cudnn.convolution_forward(x, W, (1, 1), (1, 1), (1, 1))
    scale = float(cupy.abs(exact).max())
    assert float(cupy.abs(fast - exact).max()) < 1e-2 * scale


@attr.gpu
def test_never_keeps_convolutions_off_cudnn(monkeypatch):
    import cupy

    def refuse(*args):
        raise AssertionError('cuDNN was called under use_cudnn = never')
    for name in ('convolution_forward', 'convolution_backward_data',
                 'convolution_backward_filter'):
        monkeypatch.setattr(cudnn, name, refuse)
    x = cupy.ones((1, 2, 5, 5), numpy.float32)
    W = cupy.ones((3, 2, 3, 3), numpy.float32)
    with using_config('use_cudnn', 'never'):
        y = _kernels.convolve(x, W, (1, 1), (0, 0), (False, False), (1, 1), 1)
        _kernels.deconvolve(y, W, (1, 1), (0, 0), (5, 5), (1, 1), 1)
        _kernels.convolve_grad_weight(x, y, (3, 3), (1, 1), (0, 0), (False, False), (1, 1),
                                      1, numpy.float32)
    assert float(y[0, 0, 0, 0]) == 18
