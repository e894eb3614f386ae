import numpy

import framework.functions as F
import framework.links as L
from framework import backend


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_forward():
    link = L.PReLU()
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', ())]
    numpy.testing.assert_array_equal(link.W.array, 0.25)
    x = _x(2, 3)
    numpy.testing.assert_allclose(link(x).array, numpy.where(x >= 0, x, 0.25 * x))


def test_per_channel_slopes_on_the_emulated_device():
    link = L.PReLU((3,), init=0.5).to_device('@emulated')
    x = _x(2, 3, 4)
    y = link(backend.get_device('@emulated').send(x))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), numpy.where(x >= 0, x, 0.5 * x))
    F.sum(y).backward()
    numpy.testing.assert_allclose(backend.to_cpu(link.W.grad),
                                  numpy.where(x < 0, x, 0).sum(axis=(0, 2)), rtol=1e-6)
