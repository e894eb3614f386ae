import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework import backend, initializers
from framework.testing import check_backward, devices


def _x(*shape, dtype=numpy.float32):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('args, kwargs, in_channels', [
    ((3, 7, 5), {}, 3),
    ((7, 5), {}, None),
    ((None, 7, 5), {}, None),
    ((7, 5), {'stride': 1, 'pad': 0}, None),
    ((None, 7, 5, 1, 0), {}, None),
])
def test_argument_forms(args, kwargs, in_channels):
    link = L.Convolution2D(*args, **kwargs)
    assert link.in_channels == in_channels and link.out_channels == 7 and link.ksize == 5
    assert link.W.is_initialized == (in_channels is not None)
    assert link.b.shape == (7,)
    y = link(_x(1, 3, 10, 10))
    assert y.shape == (1, 7, 6, 6) and link.W.shape == (7, 3, 5, 5)


def test_parameters_and_specs():
    link = L.Convolution2D(4, 6, (3, 2), stride=2, pad=1, dilate=2, groups=2)
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (6, 2, 3, 2)), ('/b', (6,))]
    assert link.stride == (2, 2) and link.pad == (1, 1) and link.dilate == (2, 2)
    assert str(link) == ('Convolution2D(in_channels=4, out_channels=6, ksize=(3, 2), '
                         'stride=(2, 2), pad=(1, 1), nobias=False, dilate=(2, 2), groups=2)')
    assert L.Convolution2D(3, 4, 3, nobias=True).b is None


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('kwargs', [{}, {'stride': 2, 'pad': 1}, {'dilate': 2, 'groups': 3},
                                    {'nobias': True}])
def test_forward_is_the_convolution_function(kwargs, device):
    link = L.Convolution2D(3, 6, 3, initial_bias=initializers.Normal(), **kwargs)
    x = _x(2, 3, 7, 7)
    expected = F.convolution_2d(x, link.W.array.copy(),
                                None if link.b is None else link.b.array.copy(),
                                kwargs.get('stride', 1), kwargs.get('pad', 0),
                                dilate=kwargs.get('dilate', 1), groups=kwargs.get('groups', 1))
    link.to_device(device)
    y = link(device.send(x))
    assert backend.get_device_from_array(y.array) == device
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected.array, rtol=1e-5, atol=1e-6)


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match=r'input channels \(3\) must be divisible by the number '
                                         r'of groups \(2\)'):
        L.Convolution2D(3, 4, 3, groups=2)
    link = L.Convolution2D(5, 3, groups=2)
    with pytest.raises(ValueError, match=r'output channels \(5\)'):
        link(_x(1, 4, 5, 5))


def test_initializers_and_from_params():
    W = _x(4, 1, 3, 3)
    link = L.Convolution2D.from_params(W, stride=2, groups=2)
    assert link.in_channels == 2 and link.groups == 2 and link.stride == (2, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, 0)
    link = L.Convolution2D(3, 2, 1, initialW=initializers.One(), initial_bias=1.5)
    numpy.testing.assert_array_equal(link(numpy.ones((1, 3, 2, 2), numpy.float32)).array, 4.5)


def test_gradient_check_with_params():
    link = L.Convolution2D(2, 3, 3, pad=1, initial_bias=initializers.Normal())
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    x = _x(2, 2, 4, 4, dtype=numpy.float64)
    gy = _x(2, 3, 4, 4, dtype=numpy.float64)
    check_backward(link, x, gy, params=(link.W, link.b), atol=1e-6, rtol=1e-5)
