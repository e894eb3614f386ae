import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework import backend, initializers
from framework.testing import check_backward, devices


def _x(*shape, dtype=numpy.float32):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


def test_parameters():
    link = L.Deconvolution2D(4, 6, 3, groups=2)
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (4, 3, 3, 3)), ('/b', (6,))]
    assert link.outsize == (None, None) and link.stride == (1, 1)
    lazy = L.Deconvolution2D(6, 3, stride=2)
    assert not lazy.W.is_initialized
    assert lazy(_x(1, 2, 4, 4)).shape == (1, 6, 9, 9) and lazy.W.shape == (2, 6, 3, 3)
    with pytest.raises(ValueError, match='divisible by the number of groups'):
        L.Deconvolution2D(3, 4, 3, groups=2)


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('kwargs', [{}, {'stride': 2, 'pad': 1, 'outsize': (8, 8)},
                                    {'groups': 2, 'dilate': 2}])
def test_forward_is_the_deconvolution_function(kwargs, device):
    link = L.Deconvolution2D(4, 6, 3, initial_bias=initializers.Normal(), **kwargs)
    x = _x(2, 4, 4, 4)
    expected = F.deconvolution_2d(x, link.W.array.copy(), link.b.array.copy(),
                                  kwargs.get('stride', 1), kwargs.get('pad', 0),
                                  kwargs.get('outsize'), dilate=kwargs.get('dilate', 1),
                                  groups=kwargs.get('groups', 1))
    link.to_device(device)
    y = link(device.send(x))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected.array, rtol=1e-5, atol=1e-6)


def test_gradient_check_with_params():
    link = L.Deconvolution2D(2, 3, 3, stride=2, initial_bias=initializers.Normal())
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    x = _x(2, 2, 3, 3, dtype=numpy.float64)
    gy = _x(2, 3, 7, 7, dtype=numpy.float64)
    check_backward(link, x, gy, params=(link.W, link.b), atol=1e-6, rtol=1e-5)
