import numpy

import framework.functions as F
import framework.links as L
from framework import initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_forward():
    link = L.Conv2DActiv(3, 4, 3, pad=1, initial_bias=initializers.Normal())
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/conv/W', (4, 3, 3, 3)),
                                                              ('/conv/b', (4,))]
    x = _x(2, 3, 5, 5)
    numpy.testing.assert_allclose(link(x).array, F.relu(link.conv(x)).array)


def test_short_forms_dilation_and_no_activation():
    link = L.Conv2DActiv(4, 3, dilate=2, activ=None)
    assert link.conv.in_channels is None and link.conv.dilate == (2, 2)
    x = _x(1, 2, 7, 7)
    y = link(x)
    assert y.shape == (1, 4, 3, 3) and (y.array < 0).any()
    assert L.Conv2DActiv(None, 4, 3, nobias=True).conv.b is None
