"""GradientClipping (the global norm) and GradientHardClipping (element-wise)."""

import numpy
import pytest

from framework import Parameter, backend, optimizers
from framework.optimizer_hooks import GradientClipping, GradientHardClipping
from framework.testing import assert_allclose


def _global_norm(*grads):
    return numpy.sqrt(sum(float((g.astype(numpy.float64) ** 2).sum()) for g in grads))


def test_clipping_scales_all_gradients(link, values):
    _, _, GW, GB = values
    norm = _global_norm(GW, GB)
    opt = optimizers.SGD().setup(link)
    opt.add_hook(GradientClipping(norm / 2))
    opt.call_hooks('pre')
    assert_allclose(link.W.grad, GW / 2, rtol=1e-6, atol=1e-7)
    assert_allclose(link.b.grad, GB / 2, rtol=1e-6, atol=1e-7)
    assert _global_norm(backend.to_cpu(link.W.grad), backend.to_cpu(link.b.grad)) == \
        pytest.approx(norm / 2, rel=1e-6)


def test_clipping_leaves_small_gradients(link, values):
    _, _, GW, GB = values
    opt = optimizers.SGD().setup(link)
    opt.add_hook(GradientClipping(_global_norm(GW, GB) * 1.01))
    opt.call_hooks('pre')
    numpy.testing.assert_array_equal(backend.to_cpu(link.W.grad), GW)
    numpy.testing.assert_array_equal(backend.to_cpu(link.b.grad), GB)


def test_clipping_zero_and_missing_gradients(link):
    opt = optimizers.SGD().setup(link)
    link.W.grad = link.W.xp.zeros_like(link.W.array)
    link.b.grad = None
    GradientClipping(1.0)(opt)
    assert not link.W.grad.any() and link.b.grad is None


def test_clipping_is_called_once(link):
    assert not getattr(GradientClipping, 'call_for_each_param', False)
    assert GradientClipping.timing == 'pre'


@pytest.mark.parametrize('bounds', [(-0.5, 1.0), (None, 0.25), (-1.0, None)])
def test_hard_clipping(bounds, link, values):
    _, _, GW, GB = values
    opt = optimizers.SGD().setup(link)
    opt.add_hook(GradientHardClipping(*bounds))
    opt.call_hooks('pre')
    assert_allclose(link.W.grad, numpy.clip(GW, *bounds), rtol=0, atol=0)
    assert_allclose(link.b.grad, numpy.clip(GB, *bounds), rtol=0, atol=0)


def test_hard_clipping_without_gradient():
    param = Parameter(numpy.ones(2, numpy.float32))
    GradientHardClipping(-1, 1)(None, param)
    assert param.grad is None
