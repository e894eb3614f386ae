import numpy

import framework.links as L
from framework import backend, initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 3, shape).astype(numpy.float32)


def test_parameters_and_forward():
    ln = L.LayerNormalization(5, initial_gamma=initializers.Uniform(1.0),
                              initial_beta=initializers.Uniform(1.0))
    assert [(p, v.shape) for p, v in ln.namedparams()] == [('/beta', (5,)), ('/gamma', (5,))]
    assert ln.eps == 1e-6
    x = _x(3, 5)
    normalized = (x - x.mean(axis=1, keepdims=True)) / numpy.sqrt(x.var(axis=1, keepdims=True)
                                                                  + 1e-6)
    numpy.testing.assert_allclose(ln(x).array, ln.gamma.array * normalized + ln.beta.array,
                                  rtol=1e-5, atol=1e-5)


def test_lazy_size_and_array_initializers_on_the_emulated_device():
    ln = L.LayerNormalization(initial_gamma=numpy.full(4, 2, numpy.float32))
    ln.to_device('@emulated')
    y = ln(backend.get_device('@emulated').send(_x(2, 4)))
    assert ln.beta.shape == (4,) and y.shape == (2, 4)
    numpy.testing.assert_array_equal(backend.to_cpu(ln.gamma.array), 2)
