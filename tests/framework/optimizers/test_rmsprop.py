"""RMSprop refuses an eps that the gradient's dtype rounds to 0."""

import numpy
import pytest

from framework import optimizers


def test_eps_too_small_for_float16(make_model, device):
    model = make_model(device, numpy.float16)
    opt = optimizers.RMSprop().setup(model)
    for param in model.params():
        param.grad = param.xp.ones_like(param.array)
    with pytest.raises(ValueError, match='RMSprop: eps=1e-08 is 0 in float16'):
        opt.update()
    opt.eps = 1e-4
    opt.update()
    assert all(numpy.isfinite(p.array).all() for p in model.params())
