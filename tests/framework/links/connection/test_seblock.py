import numpy

import framework.functions as F
import framework.links as L
from framework import backend
from framework.testing import check_backward


def _x(*shape, dtype=numpy.float32):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


def test_parameters_and_forward():
    block = L.SEBlock(32, ratio=8)
    assert [(p, v.shape) for p, v in block.namedparams()] == [
        ('/down/W', (4, 32)), ('/down/b', (4,)), ('/up/W', (32, 4)), ('/up/b', (32,))]
    u = _x(2, 32, 3, 4)
    z = u.mean(axis=(2, 3))
    hidden = numpy.maximum(z @ block.down.W.array.T + block.down.b.array, 0)
    weights = 1 / (1 + numpy.exp(-(hidden @ block.up.W.array.T + block.up.b.array)))
    numpy.testing.assert_allclose(block(u).array, u * weights[:, :, None, None], rtol=1e-5,
                                  atol=1e-6)


def test_emulated_device_and_gradients():
    block = L.SEBlock(4, ratio=2).to_device('@emulated')
    u = backend.get_device('@emulated').send(_x(2, 4, 2, 2))
    F.sum(block(u)).backward()
    assert all(p.grad is not None for p in block.params())
    block = L.SEBlock(4, ratio=2)
    for p in block.params():
        p.array = p.array.astype(numpy.float64)
    check_backward(block, _x(2, 4, 2, 2, dtype=numpy.float64), _x(2, 4, 2, 2,
                   dtype=numpy.float64), params=tuple(block.params()), atol=1e-6, rtol=1e-5)
