import numpy
import pytest

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


def _with_statistics(link, seed=1):
    """Random statistics, scale, shift (and bias) for ``link``, so that folding is not the
    identity."""
    rng = numpy.random.RandomState(seed)
    bn = link.bn
    bn.avg_mean[...] = rng.uniform(-1, 1, bn.avg_mean.shape)
    bn.avg_var[...] = rng.uniform(0.5, 2, bn.avg_var.shape)
    for param in (bn.gamma, bn.beta, link.conv.b):
        if param is not None:
            param.array[...] = rng.uniform(-1, 1, param.shape)
    return link


def _unfolded(link, x):
    h = F.fixed_batch_normalization(link.conv(x), *[
        p if p is not None else numpy.full(link.bn.avg_mean.shape, float(i == 0), 'f')
        for i, p in enumerate((link.bn.gamma, link.bn.beta))],
        link.bn.avg_mean, link.bn.avg_var, link.bn.eps)
    return h if link.activ is None else link.activ(h)


@pytest.mark.parametrize('kwargs', [
    {}, {'nobias': False}, {'stride': 2, 'pad': 1}, {'dilate': 2, 'pad': 2},
    {'groups': 2}, {'activ': None}, {'activ': F.tanh},
    {'bn_kwargs': {'use_gamma': False, 'use_beta': False, 'eps': 1e-3}},
])
def test_inference_without_backprop_folds_the_batch_normalization(kwargs):
    link = L.Conv2DBNActiv(4, 6, kwargs.pop('ksize', 3), **kwargs)
    x = _x(2, 4, 9, 9)
    with framework.using_config('train', False):
        link(x)  # initializes
        _with_statistics(link)
        expected = _unfolded(link, x).array
        with framework.no_backprop_mode():
            assert link._folds(x)
            y = link(x)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)


def test_no_folding_in_training_with_backprop_or_for_few_positions():
    link = _with_statistics(L.Conv2DBNActiv(4, 6, 3, pad=1))
    x = _x(1, 4, 2, 2)  # 4 positions, 36 weights per filter
    with framework.using_config('train', False), framework.no_backprop_mode():
        assert not link._folds(x)
        assert link._folds(_x(1, 4, 6, 6))
    with framework.using_config('train', False):
        assert not link._folds(_x(1, 4, 6, 6))  # backprop on: the gradients stay Chainer's
    with framework.no_backprop_mode():
        assert not link._folds(_x(1, 4, 6, 6))  # training: batch statistics


def test_a_wrong_input_gets_the_convolutions_error_in_inference():
    link = L.Conv2DBNActiv(4, 6, 3)
    link(_x(1, 4, 5, 5))
    with framework.using_config('train', False), framework.no_backprop_mode():
        with pytest.raises(ValueError, match='convolution_2d'):
            link(_x(4, 5, 5))
