import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend, initializers
from framework.testing import check_backward, devices
from framework.testing.emulated_device import EmulatedArray

EPS = 2e-5


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 3, shape).astype(dtype)


def test_parameters_and_persistents_as_chainer():
    bn = L.BatchNormalization(3)
    assert [(p, v.shape, v.dtype) for p, v in bn.namedparams()] == [
        ('/beta', (3,), numpy.float32), ('/gamma', (3,), numpy.float32)]
    assert sorted(p for p, _ in bn.namedpersistents()) == ['/N', '/avg_mean', '/avg_var']
    numpy.testing.assert_array_equal(bn.gamma.array, 1)
    numpy.testing.assert_array_equal(bn.beta.array, 0)
    numpy.testing.assert_array_equal(bn.avg_mean, 0)
    numpy.testing.assert_array_equal(bn.avg_var, 1)
    assert bn.N == 0 and bn.decay == 0.9 and bn.eps == 2e-5
    assert str(bn) == ('BatchNormalization(size=3, decay=0.9, eps=2e-05, dtype=float32, '
                       'use_gamma=True, use_beta=True)')


def test_options():
    bn = L.BatchNormalization((2, 3), dtype=numpy.float64, use_beta=False,
                              initial_gamma=initializers.Constant(2.0), initial_avg_mean=0.5,
                              initial_avg_var=initializers.Constant(3.0))
    assert [p for p, _ in bn.namedparams()] == ['/gamma'] and bn.beta is None
    assert bn.gamma.dtype == numpy.float64 and bn.avg_mean.dtype == numpy.float64
    assert bn.gamma.shape == (2, 3)
    numpy.testing.assert_array_equal(bn.gamma.array, 2)
    numpy.testing.assert_array_equal(bn.avg_mean, 0.5)
    numpy.testing.assert_array_equal(bn.avg_var, 3)
    with pytest.raises(ValueError, match='size or axis is required'):
        L.BatchNormalization()


def _expected_train(x, gamma, beta, axes):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return gamma * (x - mean) / numpy.sqrt(var + EPS) + beta


@pytest.mark.parametrize('device', devices(), ids=str)
def test_train_mode_uses_batch_statistics_and_updates_running_averages(device):
    bn = L.BatchNormalization(3, decay=0.8, initial_gamma=initializers.Uniform(1.0),
                              initial_beta=initializers.Uniform(1.0))
    gamma, beta = bn.gamma.array.copy(), bn.beta.array.copy()
    bn.to_device(device)
    x1, x2 = _x(4, 3, 2, 2), _x(5, 3, 2, 2, seed=1)
    with framework.using_config('train', True):
        y = bn(device.send(x1))
        bn(device.send(x2))
    assert isinstance(bn.avg_mean, EmulatedArray) == (str(device) == '@emulated')
    expected = _expected_train(x1, gamma[:, None, None], beta[:, None, None], (0, 2, 3))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected, rtol=1e-5, atol=1e-5)
    mean, var = numpy.zeros(3), numpy.ones(3)
    for x in (x1, x2):
        m = x.size // 3
        mean = 0.8 * mean + 0.2 * x.mean(axis=(0, 2, 3))
        var = 0.8 * var + 0.2 * x.var(axis=(0, 2, 3)) * m / (m - 1)
    numpy.testing.assert_allclose(backend.to_cpu(bn.avg_mean), mean, rtol=1e-5)
    numpy.testing.assert_allclose(backend.to_cpu(bn.avg_var), var, rtol=1e-5)
    assert bn.N == 0


@pytest.mark.parametrize('device', devices(), ids=str)
def test_test_mode_uses_the_running_averages(device):
    bn = L.BatchNormalization(3, initial_gamma=initializers.Uniform(1.0))
    bn.avg_mean[...] = [0.5, -1, 2]
    bn.avg_var[...] = [1, 4, 0.25]
    gamma = bn.gamma.array.copy()
    bn.to_device(device)
    x = _x(2, 3, 4)
    with framework.using_config('train', False):
        y = bn(device.send(x))
    expected = (gamma[:, None] * (x - numpy.array([0.5, -1, 2])[:, None])
                / numpy.sqrt(numpy.array([1, 4, 0.25])[:, None] + EPS))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(backend.to_cpu(bn.avg_mean), [0.5, -1, 2])


def test_finetune_averages_the_batches_exactly():
    bn = L.BatchNormalization(2, decay=0.5)
    xs = [_x(4, 2, seed=i) for i in range(3)]
    for x in xs:
        bn(x, finetune=True)
    assert bn.N == 3
    numpy.testing.assert_allclose(bn.avg_mean, numpy.mean([x.mean(axis=0) for x in xs], axis=0),
                                  rtol=1e-5)
    numpy.testing.assert_allclose(bn.avg_var, numpy.mean([x.var(axis=0, ddof=1) for x in xs],
                                                         axis=0), rtol=1e-5)
    bn.start_finetuning()
    assert bn.N == 0
    bn(xs[0], finetune=True)
    numpy.testing.assert_allclose(bn.avg_mean, xs[0].mean(axis=0), rtol=1e-5)


def test_axis_and_lazy_size():
    bn = L.BatchNormalization(axis=(0, 2))
    assert bn.avg_mean is None and not bn.gamma.is_initialized
    assert sorted(p for p, _ in bn.namedpersistents()) == ['/N', '/avg_mean', '/avg_var']
    x = _x(4, 3, 5)
    y = bn(x)
    assert bn.avg_mean.shape == (3,) and bn.gamma.shape == (3,)
    numpy.testing.assert_allclose(y.array, _expected_train(x, 1, 0, (0, 2)), rtol=1e-5,
                                  atol=1e-5)
    per_pixel = L.BatchNormalization(axis=0)
    per_pixel(x)
    assert per_pixel.avg_var.shape == (3, 5)


def test_without_gamma_and_beta_on_the_emulated_device():
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False).to_device('@emulated')
    assert list(bn.params()) == []
    x = _x(4, 3)
    y = bn(backend.get_device('@emulated').send(x))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), _expected_train(x, 1, 0, (0,)),
                                  rtol=1e-5, atol=1e-5)


def test_float16():
    bn = L.BatchNormalization(3, dtype=numpy.float16)
    y = bn(_x(4, 3, dtype=numpy.float16))
    assert y.dtype == numpy.float16 and bn.avg_mean.dtype == numpy.float16


def test_gradient_check_with_params():
    bn = L.BatchNormalization(3, dtype=numpy.float64, initial_gamma=initializers.Uniform(1.0),
                              initial_beta=initializers.Uniform(1.0))
    x = _x(5, 3, dtype=numpy.float64)
    gy = _x(5, 3, dtype=numpy.float64, seed=2)
    check_backward(bn, x, gy, params=(bn.gamma, bn.beta), atol=1e-5, rtol=1e-4)


def test_copies_share_or_copy_the_running_averages():
    bn = L.BatchNormalization(3)
    assert bn.copy('share').avg_mean is bn.avg_mean
    copied = bn.copy('copy')
    assert copied.avg_mean is not bn.avg_mean
    copied(_x(4, 3))
    numpy.testing.assert_array_equal(bn.avg_mean, 0)
    assert F.sum(copied(_x(4, 3))).array.shape == ()
