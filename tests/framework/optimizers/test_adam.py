"""What is particular to Adam: the step size alpha_t, AdaBound's bounds, float16 parameters."""

import math

import numpy
import pytest

from framework import backend, optimizers
from framework.testing import assert_allclose


def _alpha_t(alpha, beta1, beta2, t):
    return alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)


def test_alpha_t_and_lr(model, device):
    opt = optimizers.Adam(alpha=0.01, beta1=0.8, beta2=0.9).setup(model)
    with pytest.raises(RuntimeError, match='not defined before the first update'):
        _ = opt.alpha_t
    for t in (1, 2, 3):
        for param in model.params():
            param.grad = param.xp.ones_like(param.array)
        opt.update()
        assert opt.alpha_t == pytest.approx(_alpha_t(0.01, 0.8, 0.9, t), rel=1e-12)
        assert opt.lr == opt.alpha_t
        rule = model.a.W.update_rule
        assert rule.alpha_t == rule.lr == opt.alpha_t
    with pytest.raises(AttributeError):
        opt.lr = 0.1


def test_adabound_bounds(model):
    opt = optimizers.AdaBound(alpha=0.01, final_lr=0.2, gamma=0.1).setup(model)
    rule = model.a.W.update_rule
    with pytest.raises(RuntimeError, match='bounds are not defined before the first update'):
        _ = rule.bounds
    rule.t = 4
    assert rule.bounds == pytest.approx((0.2 * (1 - 1 / 1.4), 0.2 * (1 + 1 / 0.4)))
    opt.alpha = 0.02  # a schedule on alpha moves final_lr with it
    assert rule.bounds == pytest.approx((0.4 * (1 - 1 / 1.4), 0.4 * (1 + 1 / 0.4)))


def test_float16_is_computed_in_float32(make_model, device):
    model = make_model(device, numpy.float16)
    opt = optimizers.Adam(alpha=0.01).setup(model)
    param = model.a.W
    p = backend.to_cpu(param.array).astype(numpy.float64)
    m = numpy.zeros_like(p)
    v = numpy.zeros_like(p)
    rng = numpy.random.RandomState(0)
    for t in (1, 2, 3):
        g = rng.uniform(-1, 1, p.shape).astype(numpy.float16)
        for q in model.params():
            q.grad = q.xp.zeros_like(q.array)
        param.grad = device.send(g)
        opt.update()
        m += 0.1 * (g - m)
        v += 0.001 * (g.astype(numpy.float64) ** 2 - v)
        p -= _alpha_t(0.01, 0.9, 0.999, t) * m / (numpy.sqrt(v) + 1e-8)
    state = param.update_rule.state
    assert param.dtype == state['m'].dtype == state['v'].dtype == numpy.float16
    assert_allclose(param.array, p, rtol=1e-3, atol=1e-3)


def test_eps_too_small(model):
    opt = optimizers.Adam(eps=1e-50).setup(model)
    for param in model.params():
        param.grad = param.xp.ones_like(param.array)
    with pytest.raises(ValueError, match='Adam: eps=1e-50 is 0 in float32'):
        opt.update()
