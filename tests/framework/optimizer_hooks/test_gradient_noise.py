"""GradientNoise: annealed Gaussian noise from framework.random, and custom noise functions."""

import numpy

import framework
from framework import backend, optimizers
from framework.optimizer_hooks import GradientNoise
from framework.testing import assert_allclose


def test_default_noise_is_seeded(link, values, device):
    W0, B0, GW, GB = values
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(GradientNoise(eta=0.3))
    framework.random.seed(5)
    opt.update()
    first = [backend.to_cpu(p.array).copy() for p in link.params()]

    link.W.array[...] = device.send(W0.copy())
    link.b.array[...] = device.send(B0)
    link.W.grad = device.send(GW.copy())
    link.b.grad = device.send(GB.copy())
    for param in link.params():
        param.update_rule.t = 0
    framework.random.seed(5)
    opt.update()
    for param, array in zip(link.params(), first):
        numpy.testing.assert_array_equal(backend.to_cpu(param.array), array)

    # the rule's t is 0 when the pre-update hook runs: variance eta / 1 ** 0.55
    rng = numpy.random.RandomState(5)
    std = numpy.sqrt(0.3)
    noise_w = rng.normal(0, std, (3, 2)).astype(numpy.float32)
    noise_b = rng.normal(0, std, (2,)).astype(numpy.float32)
    if backend.get_array_module(link.W.array) is numpy:
        assert_allclose(first[0], W0 - (GW + noise_w), rtol=1e-6, atol=1e-6)
        assert_allclose(first[1], B0 - (GB + noise_b), rtol=1e-6, atol=1e-6)
    assert 0 < numpy.abs(first[0] - (W0 - GW)).max() < 5 * std


def test_custom_noise_function(link, values):
    W0, B0, GW, GB = values
    calls = []

    def noise_func(xp, shape, dtype, hook, rule):
        calls.append((shape, dtype, hook, rule.t))
        return xp.full(shape, hook.eta, dtype)

    hook = GradientNoise(0.5, noise_func=noise_func)
    opt = optimizers.SGD(lr=1.0).setup(link)
    link.W.update_rule.add_hook(hook)
    opt.update()
    assert calls == [((3, 2), numpy.float32, hook, 1)]
    assert_allclose(link.W.array, W0 - (GW + 0.5), rtol=1e-6, atol=1e-7)
    assert_allclose(link.b.array, B0 - GB, rtol=1e-6, atol=1e-7)
