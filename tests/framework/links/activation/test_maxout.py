import numpy
import pytest

import framework.links as L
from framework import initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_forward():
    link = L.Maxout(3, 4, 2, initial_bias=initializers.Normal())
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/linear/W', (8, 3)),
                                                              ('/linear/b', (8,))]
    x = _x(5, 3)
    h = x @ link.linear.W.array.T + link.linear.b.array
    numpy.testing.assert_allclose(link(x).array, h.reshape(5, 4, 2).max(axis=2), rtol=1e-6)


def test_initial_arrays_have_the_maxout_shape():
    W = _x(4, 2, 3)
    b = _x(4, 2)
    link = L.Maxout(3, 4, 2, initialW=W, initial_bias=b)
    numpy.testing.assert_array_equal(link.linear.W.array, W.reshape(8, 3))
    numpy.testing.assert_array_equal(link.linear.b.array, b.reshape(8))
    assert L.Maxout(3, 4, 2, initial_bias=None).linear.b is None
    with pytest.raises(ValueError, match='initialW must be 3-dimensional'):
        L.Maxout(3, 4, 2, initialW=W.reshape(8, 3))


def test_callable_initializers_see_the_maxout_shape():
    shapes = []

    def fill(array):
        shapes.append(array.shape)
        array[...] = numpy.arange(array.size).reshape(array.shape)

    link = L.Maxout(3, 4, 2, initialW=fill, initial_bias=fill)
    assert shapes == [(4, 2, 3), (4, 2)]
    numpy.testing.assert_array_equal(link.linear.b.array, numpy.arange(8))
