"""Differential tests against Chainer itself: each layer built with the same arguments has the
same parameters and persistents (names, shapes, dtypes, and values from the same seed), and,
with Chainer's parameter values, the same outputs, gradients and running statistics.

Skipped unless Chainer is importable (see ``tests/framework/functions/test_chainer_parity.py``
for making a virtual environment with Chainer 7.8.1).
"""

import numpy
import pytest

import framework
import framework.links as L
from framework import initializers

chainer = pytest.importorskip('chainer')
CL = chainer.links


def _u(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float32)


# layer, positional arguments, keyword arguments, input
CASES = [
    ('Linear', (3, 4), {}, _u(2, 3)),
    ('Linear', (4,), {}, _u(2, 3, 2)),
    ('Linear', (3, 4), {'nobias': True}, _u(2, 3)),
    ('Convolution2D', (3, 4, 3), {'stride': 2, 'pad': 1}, _u(2, 3, 7, 7)),
    ('Convolution2D', (4, 3), {}, _u(2, 3, 5, 5)),
    ('Convolution2D', (4, 6, 3), {'groups': 2, 'dilate': 2, 'pad': 2}, _u(2, 4, 7, 7)),
    ('Deconvolution2D', (3, 4, 3), {'stride': 2, 'pad': 1}, _u(2, 3, 4, 4)),
    ('DilatedConvolution2D', (3, 4, 3), {'dilate': 2, 'pad': 2}, _u(2, 3, 6, 6)),
    ('DepthwiseConvolution2D', (3, 2, 3), {'pad': 1}, _u(2, 3, 5, 5)),
    ('ConvolutionND', (3, 2, 4, 2), {}, _u(2, 2, 3, 4, 3)),
    ('Convolution1D', (2, 4, 3), {}, _u(2, 2, 6)),
    ('DeconvolutionND', (2, 3, 4, 3), {'stride': 2}, _u(2, 3, 3, 3)),
    ('BatchNormalization', (3,), {}, _u(4, 3, 2, 2)),
    ('BatchNormalization', (), {'axis': 0}, _u(4, 3, 2)),
    ('BatchNormalization', (3,), {'use_gamma': False, 'use_beta': False}, _u(4, 3)),
    ('GroupNormalization', (2, 4), {}, _u(2, 4, 3, 3)),
    ('GroupNormalization', (2,), {}, _u(2, 4, 3)),
    ('LayerNormalization', (5,), {}, _u(3, 5)),
    ('LayerNormalization', (), {}, _u(3, 5)),
    ('PReLU', ((3,),), {}, _u(2, 3, 4)),
    ('Scale', (), {'W_shape': (3,), 'bias_term': True}, _u(2, 3, 4)),
    ('Bias', (), {'shape': (3, 4)}, _u(2, 3, 4)),
    ('Maxout', (3, 4, 2), {}, _u(2, 3)),
    ('EmbedID', (5, 3), {'ignore_label': -1}, numpy.array([[0, 4, -1], [2, 2, 1]], 'i')),
]


def _build(name, args, kwargs, x):
    theirs = getattr(CL, name)(*args, **kwargs)
    ours = getattr(L, name)(*args, **kwargs)
    if any(p.array is None for p in theirs.params()) or getattr(theirs, 'avg_mean', 0) is None:
        with chainer.using_config('train', False), framework.using_config('train', False):
            theirs(x)
            ours(x)
    return theirs, ours


@pytest.mark.parametrize('name, args, kwargs, x', CASES, ids=lambda v: str(v)[:20])
def test_same_outputs_gradients_and_statistics(name, args, kwargs, x):
    theirs, ours = _build(name, args, kwargs, x)
    their_params, our_params = dict(theirs.namedparams()), dict(ours.namedparams())
    assert list(their_params) == list(our_params)
    for path, p in their_params.items():
        assert (p.shape, p.dtype) == (our_params[path].shape, our_params[path].dtype), path
        our_params[path].array[...] = p.array
    assert sorted(theirs._persistent) == sorted(ours._persistent)
    for key in theirs._persistent:
        value = getattr(theirs, key)
        if isinstance(value, numpy.ndarray):
            getattr(ours, key)[...] = value
        else:
            assert type(value) is type(getattr(ours, key)), key
    for train in (True, False):
        with chainer.using_config('train', train), framework.using_config('train', train):
            y_theirs, y_ours = theirs(x), ours(x)
        numpy.testing.assert_allclose(y_ours.array, y_theirs.array, rtol=1e-4, atol=1e-5)
        for key in theirs._persistent:
            numpy.testing.assert_allclose(getattr(ours, key), getattr(theirs, key), rtol=1e-5)
    if name == 'Deconvolution2D':
        return  # Chainer 7.8.1's backward of Deconvolution2D fails on the CPU
    gy = _u(*y_theirs.shape, seed=1)
    theirs.cleargrads()
    y_theirs.grad, y_ours.grad = gy, gy
    y_theirs.backward()
    y_ours.backward()
    for path, p in their_params.items():
        numpy.testing.assert_allclose(our_params[path].grad, p.grad, rtol=1e-4, atol=1e-5,
                                      err_msg=path)


@pytest.mark.parametrize('name, args, kwargs', [
    ('Linear', (30, 20), {}),
    ('Convolution2D', (3, 8, 3), {'initial_bias': chainer.initializers.Normal()}),
    ('EmbedID', (10, 4), {}),
    ('DepthwiseConvolution2D', (3, 2, 3), {}),
])
def test_same_values_from_the_same_seed(name, args, kwargs):
    numpy.random.seed(11)
    theirs = getattr(CL, name)(*args, **kwargs)
    framework.random.seed(11)
    ours_kwargs = dict(kwargs)
    if 'initial_bias' in kwargs:
        ours_kwargs['initial_bias'] = initializers.Normal()
    ours = getattr(L, name)(*args, **ours_kwargs)
    for (path, p), (_, q) in zip(theirs.namedparams(), ours.namedparams()):
        numpy.testing.assert_array_equal(q.array, p.array, err_msg=path)


@pytest.mark.parametrize('name, kwargs', [
    ('LeCunNormal', {}), ('GlorotNormal', {'scale': 2.0}), ('HeNormal', {'fan_option': 'fan_out'}),
    ('Normal', {'scale': 0.3}), ('Uniform', {'scale': 0.3}), ('LeCunUniform', {}),
    ('GlorotUniform', {}), ('HeUniform', {}), ('Orthogonal', {}),
])
def test_initializers_draw_as_chainers(name, kwargs):
    numpy.random.seed(5)
    theirs = numpy.empty((4, 6, 2), numpy.float32)
    getattr(chainer.initializers, name)(**kwargs)(theirs)
    framework.random.seed(5)
    ours = initializers.generate_array(getattr(initializers, name)(**kwargs), (4, 6, 2))
    numpy.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
