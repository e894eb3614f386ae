import numpy

import framework.functions as F
import framework.links as L
from framework import initializers


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_and_forward():
    link = L.DeconvolutionND(3, 4, 6, 2, stride=2, groups=2, initial_bias=initializers.Normal())
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/W', (4, 3, 2, 2, 2)),
                                                              ('/b', (6,))]
    x = _x(1, 4, 2, 3, 2)
    expected = F.deconvolution_nd(x, link.W.array, link.b.array, 2, groups=2)
    numpy.testing.assert_allclose(link(x).array, expected.array, rtol=1e-6)
    assert link(x).shape == (1, 6, 4, 6, 4)


def test_lazy_and_shorthands():
    link = L.DeconvolutionND(2, 3, 2)
    assert link(_x(1, 2, 3, 3)).shape == (1, 3, 4, 4) and link.W.shape == (2, 3, 2, 2)
    assert L.Deconvolution1D(2, 3, 2).W.shape == (2, 3, 2)
    assert L.Deconvolution3D(2, 3, 2, nobias=True).b is None
