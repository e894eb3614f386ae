"""WeightDecay and Lasso: through an optimizer (every parameter), on one update rule, under
loss scaling, and without a gradient."""

import numpy
import pytest

import framework.functions as F
from framework import Parameter, optimizers
from framework.optimizer_hooks import Lasso, WeightDecay
from framework.testing import assert_allclose


def test_weight_decay(link, values):
    W0, B0, GW, GB = values
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(WeightDecay(0.1))
    opt.update()
    assert_allclose(link.W.array, W0 - (GW + 0.1 * W0), rtol=1e-6, atol=1e-7)
    assert_allclose(link.b.array, B0 - (GB + 0.1 * B0), rtol=1e-6, atol=1e-7)


def test_lasso(link, values):
    W0, B0, GW, GB = values
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(Lasso(0.1))
    opt.update()
    assert_allclose(link.W.array, W0 - (GW + 0.1 * numpy.sign(W0)), rtol=1e-6, atol=1e-7)
    assert link.W.array[1, 0] == -GW[1, 0]  # sign(0) == 0
    assert_allclose(link.b.array, B0 - (GB + 0.1 * numpy.sign(B0)), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize('hook', [WeightDecay(0.1), Lasso(0.1)], ids=lambda h: h.name)
def test_on_one_update_rule(hook, link, values):
    W0, B0, GW, GB = values
    opt = optimizers.SGD(lr=1.0).setup(link)
    link.b.update_rule.add_hook(hook)
    opt.update()
    assert_allclose(link.W.array, W0 - GW, rtol=1e-6, atol=1e-7)
    expected = B0 - (GB + 0.1 * (B0 if hook.name == 'WeightDecay' else numpy.sign(B0)))
    assert_allclose(link.b.array, expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize('hook_cls', [WeightDecay, Lasso])
def test_under_loss_scaling(hook_cls, link, device):
    """Hooks see gradients divided by the loss scale: the update does not depend on it."""
    x = device.send(numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(3, 2))
    results = []
    for scale in (None, 128.0):
        link.W.array[...] = device.send(numpy.ones((3, 2), numpy.float32))
        opt = optimizers.SGD(lr=0.5).setup(link)
        opt.add_hook(hook_cls(0.25))
        if scale is not None:
            opt.set_loss_scale(scale)
        opt.update(lambda: F.sum(link.W * x))
        results.append(link.W.array.copy())
    assert_allclose(results[1], results[0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize('hook', [WeightDecay(0.1), Lasso(0.1)], ids=lambda h: h.name)
def test_without_gradient(hook):
    param = Parameter(numpy.ones(2, numpy.float32))
    hook(None, param)
    assert param.grad is None
