import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend
from framework.testing import devices


def test_parameters_and_default_initializer():
    framework.random.seed(0)
    link = L.EmbedID(100, 50)
    assert [(p, v.shape, v.dtype) for p, v in link.namedparams()] == [
        ('/W', (100, 50), numpy.float32)]
    assert abs(link.W.array.std() - 1) < 0.05
    assert link.ignore_label is None


@pytest.mark.parametrize('device', devices(), ids=str)
def test_forward_and_backward(device):
    link = L.EmbedID(4, 3, ignore_label=-1).to_device(device)
    x = device.send(numpy.array([[0, 3], [-1, 0]], numpy.int32))
    y = link(x)
    W = backend.to_cpu(link.W.array)
    numpy.testing.assert_array_equal(backend.to_cpu(y.array),
                                     [[W[0], W[3]], [numpy.zeros(3), W[0]]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(backend.to_cpu(link.W.grad),
                                     [[2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1]])


def test_initial_weight_and_from_params():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    link = L.EmbedID(3, 2, initialW=W)
    numpy.testing.assert_array_equal(link.W.array, W)
    made = L.EmbedID.from_params(W, ignore_label=1)
    numpy.testing.assert_array_equal(made(numpy.array([1, 2], numpy.int32)).array,
                                     [[0, 0], [4, 5]])
