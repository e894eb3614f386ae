"""GradientLARS: gradients rescaled by |param| / (eps + |grad| + weight_decay * |param|)."""

import numpy

from framework import optimizers
from framework.optimizer_hooks import GradientLARS
from framework.testing import assert_allclose


def _lars(p, g, threshold, weight_decay, eps):
    p = p.astype(numpy.float64)
    g = g.astype(numpy.float64)
    p_norm, g_norm = numpy.linalg.norm(p), numpy.linalg.norm(g)
    rate = p_norm / (eps + g_norm + weight_decay * p_norm) if p_norm > threshold else 1.0
    return (g + weight_decay * p) * rate


def test_lars(link, values):
    W0, B0, GW, GB = values
    opt = optimizers.SGD().setup(link)
    # b's norm (0.22) is below the threshold: only the weight decay applies to it
    opt.add_hook(GradientLARS(threshold=0.5, weight_decay=0.01, eps=1e-6))
    opt.call_hooks('pre')
    assert_allclose(link.W.grad, _lars(W0, GW, 0.5, 0.01, 1e-6), rtol=1e-5, atol=1e-7)
    assert_allclose(link.b.grad, _lars(B0, GB, 0.5, 0.01, 1e-6), rtol=1e-5, atol=1e-7)
    assert_allclose(link.b.grad, GB + 0.01 * B0, rtol=1e-6, atol=1e-7)


def test_defaults():
    hook = GradientLARS()
    assert (hook.threshold, hook.weight_decay, hook.eps) == (1e-2, 0.0, 1e-9)
    assert hook.call_for_each_param and hook.timing == 'pre'
