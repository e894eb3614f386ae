import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework import backend, initializers
from framework.testing import devices


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_argument_forms():
    link = L.ConvolutionND(3, 4, 6, (1, 2, 3), groups=2)
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (6, 2, 1, 2, 3)),
                                                              ('/b', (6,))]
    lazy = L.ConvolutionND(2, 5, 3)
    assert lazy.ksize == (3, 3) and not lazy.W.is_initialized
    assert lazy(_x(1, 2, 4, 4)).shape == (1, 5, 2, 2) and lazy.W.shape == (5, 2, 3, 3)
    assert L.Convolution1D(2, 3, 2).W.shape == (3, 2, 2)
    assert L.Convolution3D(2, 3, 2).W.shape == (3, 2, 2, 2, 2)
    with pytest.raises(ValueError, match='expected 2 values'):
        L.ConvolutionND(2, 1, 1, (1, 2, 3))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_forward_is_the_convolution_function(device):
    link = L.ConvolutionND(3, 2, 4, 2, stride=2, pad=1, cover_all=True,
                           initial_bias=initializers.Normal())
    x = _x(2, 2, 3, 4, 3)
    expected = F.convolution_nd(x, link.W.array.copy(), link.b.array.copy(), 2, 1,
                                cover_all=True)
    y = link.to_device(device)(device.send(x))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected.array, rtol=1e-5, atol=1e-6)


def test_from_params():
    W = _x(4, 1, 2, 2, 2)
    link = L.ConvolutionND.from_params(W, groups=2)
    assert link.W.shape == (4, 1, 2, 2, 2) and link.groups == 2 and link.ksize == (2, 2, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
