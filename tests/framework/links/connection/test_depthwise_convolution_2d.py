import math

import numpy

import framework
import framework.functions as F
import framework.links as L
from framework import backend, initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_default_initializer():
    framework.random.seed(0)
    link = L.DepthwiseConvolution2D(16, 8, 5)
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (8, 16, 5, 5)),
                                                              ('/b', (128,))]
    # HeNormal(1 / sqrt(2)): std sqrt(1 / fan_in), fan_in = 16 * 25
    assert abs(link.W.array.std() / math.sqrt(1 / 400) - 1) < 0.05
    numpy.testing.assert_array_equal(link.b.array, 0)


def test_lazy_and_forward():
    link = L.DepthwiseConvolution2D(None, 2, 3, pad=1, initial_bias=initializers.Normal())
    assert not link.W.is_initialized and not link.b.is_initialized
    x = _x(2, 3, 5, 5)
    y = link(x)
    assert link.W.shape == (2, 3, 3, 3) and link.b.shape == (6,)
    expected = F.depthwise_convolution_2d(x, link.W.array, link.b.array, 1, 1)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-6)
    assert L.DepthwiseConvolution2D(3, 2, 3, nobias=True).b is None


def test_emulated_device():
    link = L.DepthwiseConvolution2D(None, 2, 3).to_device('@emulated')
    y = link(backend.get_device('@emulated').send(_x(1, 3, 4, 4)))
    assert y.shape == (1, 6, 2, 2) and link.b.device == link.device
