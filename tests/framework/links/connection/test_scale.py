import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework import backend
from framework.testing import devices


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_learned_factor_and_bias():
    link = L.Scale(axis=1, W_shape=(3,), bias_term=True)
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (3,)), ('/bias/b', (3,))]
    numpy.testing.assert_array_equal(link.W.array, 1)
    numpy.testing.assert_array_equal(link.bias.b.array, 0)
    link.W.array[...] = [1, 2, 3]
    link.bias.b.array[...] = [0, 1, 0]
    x = _x(2, 3, 4)
    expected = x * numpy.array([1, 2, 3])[:, None] + numpy.array([0, 1, 0])[:, None]
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_given_factor(device):
    link = L.Scale(axis=0, bias_term=True, bias_shape=(2, 3)).to_device(device)
    assert [p for p, _ in link.namedparams()] == ['/bias/b']
    x, y = _x(2, 3, 4), _x(2, 3)
    out = link(device.send(x), device.send(y))
    numpy.testing.assert_allclose(backend.to_cpu(out.array), x * y[:, :, None], rtol=1e-6)
    F.sum(out).backward()
    numpy.testing.assert_array_equal(backend.to_cpu(link.bias.b.grad), 4)


def test_bias_shape_is_needed():
    with pytest.raises(ValueError, match='bias_shape must be given'):
        L.Scale(bias_term=True)
    assert list(L.Scale().params()) == []
