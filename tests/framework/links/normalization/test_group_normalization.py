import numpy
import pytest

import framework.links as L
from framework import backend, initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 3, shape).astype(numpy.float32)


def test_parameters_and_forward():
    gn = L.GroupNormalization(2, 4, initial_gamma=initializers.Uniform(1.0),
                              initial_beta=initializers.Uniform(1.0))
    assert [(p, v.shape, v.dtype) for p, v in gn.namedparams()] == [
        ('/beta', (4,), numpy.float32), ('/gamma', (4,), numpy.float32)]
    x = _x(2, 4, 3)
    groups = x.reshape(2, 2, 6)
    normalized = ((groups - groups.mean(axis=2, keepdims=True))
                  / numpy.sqrt(groups.var(axis=2, keepdims=True) + 1e-5)).reshape(2, 4, 3)
    expected = gn.gamma.array[:, None] * normalized + gn.beta.array[:, None]
    numpy.testing.assert_allclose(gn(x).array, expected, rtol=1e-5, atol=1e-5)


def test_lazy_size_on_the_emulated_device():
    gn = L.GroupNormalization(3).to_device('@emulated')
    assert not gn.gamma.is_initialized
    y = gn(backend.get_device('@emulated').send(_x(2, 6, 2, 2)))
    assert gn.gamma.shape == (6,) and y.shape == (2, 6, 2, 2)
    numpy.testing.assert_array_equal(backend.to_cpu(gn.gamma.array), 1)
    with pytest.raises(ValueError, match='at least 2 dimensions'):
        L.GroupNormalization(1)(_x(3))
