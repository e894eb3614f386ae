import numpy

import framework.functions as F
import framework.links as L


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_as_chainercv():
    link = L.SeparableConv2DBNActiv(3, 5, 3, pad=1)
    assert [(p, v.shape) for p, v in link.namedparams()] == [
        ('/depthwise/W', (3, 1, 3, 3)), ('/depthwise/b', (3,)), ('/dw_bn/beta', (3,)),
        ('/dw_bn/gamma', (3,)), ('/pointwise/W', (5, 3, 1, 1)), ('/pointwise/b', (5,)),
        ('/pw_bn/beta', (5,)), ('/pw_bn/gamma', (5,))]
    assert L.SeparableConv2DBNActiv(3, 5, 3, nobias=True).pointwise.b is None


def test_forward():
    link = L.SeparableConv2DBNActiv(3, 5, 3, pad=2, dilate=2, dw_activ=F.relu,
                                    pw_activ=None)
    x = _x(2, 3, 6, 6)
    y = link(x)
    h = F.relu(link.dw_bn(link.depthwise(x)))
    expected = link.pw_bn(link.pointwise(h))
    assert y.shape == (2, 5, 6, 6)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-6)
