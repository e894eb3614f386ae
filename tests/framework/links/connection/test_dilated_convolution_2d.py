import numpy

import framework.functions as F
import framework.links as L
from framework import backend, initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_forward():
    link = L.DilatedConvolution2D(3, 4, 3, pad=2, dilate=2, initial_bias=initializers.Normal())
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (4, 3, 3, 3)), ('/b', (4,))]
    x = _x(2, 3, 6, 6)
    expected = F.dilated_convolution_2d(x, link.W.array, link.b.array, 1, 2, 2)
    numpy.testing.assert_allclose(link(x).array, expected.array, rtol=1e-6)


def test_lazy_short_form_on_the_emulated_device():
    link = L.DilatedConvolution2D(4, 3, dilate=2, nobias=True).to_device('@emulated')
    assert link.b is None and not link.W.is_initialized
    y = link(backend.get_device('@emulated').send(_x(1, 2, 7, 7)))
    assert y.shape == (1, 4, 3, 3) and link.W.shape == (4, 2, 3, 3)
    assert link.W.device == link.device
