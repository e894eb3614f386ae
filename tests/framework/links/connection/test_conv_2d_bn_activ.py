import numpy

import framework
import framework.functions as F
import framework.links as L


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_parameters_as_chainercv():
    link = L.Conv2DBNActiv(3, 4, 3)
    assert [(p, v.shape) for p, v in link.namedparams()] == [
        ('/bn/beta', (4,)), ('/bn/gamma', (4,)), ('/conv/W', (4, 3, 3, 3))]
    assert sorted(p for p, _ in link.namedpersistents()) == ['/bn/N', '/bn/avg_mean',
                                                             '/bn/avg_var']
    assert L.Conv2DBNActiv(3, 4, 3, nobias=False).conv.b is not None


def test_forward_in_train_and_test_modes():
    link = L.Conv2DBNActiv(None, 4, 3, pad=1, bn_kwargs={'decay': 0.5, 'eps': 1e-3})
    assert link.bn.decay == 0.5 and link.bn.eps == 1e-3
    x = _x(2, 3, 5, 5)
    y = link(x)
    h = link.conv(x)
    expected = F.relu(F.batch_normalization(h, link.bn.gamma, link.bn.beta, eps=1e-3))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-6)
    with framework.using_config('train', False):
        y = link(x)
    expected = F.relu(F.fixed_batch_normalization(h, link.bn.gamma, link.bn.beta,
                                                  link.bn.avg_mean, link.bn.avg_var, 1e-3))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-6)


def test_groups_dilation_and_activation():
    link = L.Conv2DBNActiv(4, 6, 3, dilate=2, groups=2, activ=None)
    assert link.conv.W.shape == (6, 2, 3, 3) and link.conv.dilate == (2, 2)
    y = link(_x(2, 4, 6, 6))
    assert y.shape == (2, 6, 2, 2) and (y.array < 0).any()
