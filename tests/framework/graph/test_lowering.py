"""Lowering: the function nodes with an op of the graph's own become that op, with the node's
arguments; the others stay nodes."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph
from framework.functions.pooling.average_pooling_nd import average_pooling_nd
from framework.graph import ops
from framework.graph.constant_folding import fold_constants
from framework.graph.graph import NodeOp
from framework.graph.lowering import lower


def _input(shape=(2, 3, 8, 8), dtype=numpy.float32):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


def _lowered(fn, *inputs, train=False):
    with framework.using_config('train', train):
        g, _ = graph.trace(fn, *inputs)
    fold_constants(g)
    lower(g)
    return g


def test_convolution():
    conv = L.Convolution2D(3, 6, 3, stride=2, pad=1, dilate=2, groups=3)
    op, = _lowered(conv, _input()).ops
    assert isinstance(op, ops.Conv2D)
    assert op.W is conv.W.array and op.b is conv.b.array
    assert (op.stride, op.pad, op.dilate, op.groups) == ((2, 2), (1, 1), (2, 2), 3)
    assert op.activation is None and not op.residual


def test_convolution_without_bias():
    op, = _lowered(L.Convolution2D(3, 6, 1, nobias=True), _input()).ops
    assert isinstance(op, ops.Conv2D) and op.b is None


@pytest.mark.parametrize('nobias', [False, True])
def test_a_fully_connected_layer(nobias):
    linear = L.Linear(5, 4, nobias=nobias)
    op, = _lowered(linear, _input((3, 5))).ops
    assert isinstance(op, ops.Linear)
    assert op.W is linear.W.array and op.b is (None if nobias else linear.b.array)
    y = op.run([_input((3, 5))], None, {})
    numpy.testing.assert_allclose(y, linear(_input((3, 5))).array, rtol=1e-6, atol=1e-7)


def test_fixed_batch_normalization_becomes_an_affine_map():
    bn = L.BatchNormalization(3, eps=1e-3)
    rng = numpy.random.RandomState(1)
    bn.avg_mean[...] = rng.uniform(-1, 1, 3)
    bn.avg_var[...] = rng.uniform(0.5, 2, 3)
    bn.gamma.array[...] = rng.uniform(0.5, 2, 3)
    bn.beta.array[...] = rng.uniform(-1, 1, 3)
    op, = _lowered(bn, _input()).ops
    assert isinstance(op, ops.Affine)
    scale = bn.gamma.array / numpy.sqrt(bn.avg_var + 1e-3)
    numpy.testing.assert_allclose(op.scale, scale, rtol=1e-6)
    numpy.testing.assert_allclose(op.shift, bn.beta.array - bn.avg_mean * scale, rtol=1e-6)


def test_batch_normalization_in_training_stays_a_node():
    op, = _lowered(L.BatchNormalization(3), _input(), train=True).ops
    assert isinstance(op, NodeOp)


@pytest.mark.parametrize('fn, expected', [
    (F.relu, ('relu',)),
    (lambda x: F.clipped_relu(x, 4.0), ('clip', 4.0)),
], ids=['relu', 'clipped_relu'])
def test_activations(fn, expected):
    op, = _lowered(fn, _input()).ops
    assert isinstance(op, ops.Activation) and op.activation == expected


def test_a_sum_of_one_shape_and_not_a_broadcast_one():
    same, broadcast = _lowered(lambda x, y, b: (x + y, x + b), _input(), _input(),
                               _input((1, 3, 1, 1))).ops
    assert isinstance(same, ops.Add) and isinstance(broadcast, NodeOp)


@pytest.mark.parametrize('fn, kind, divisor', [
    (lambda x: F.max_pooling_2d(x, 3, 2, 1), 'max', None),
    (lambda x: F.average_pooling_2d(x, 3, 2, 1), 'average', 9),
    (lambda x: average_pooling_nd(x, 3, 2, 1, pad_value=None), 'average', None),
], ids=['max', 'average', 'average-pad-value-none'])
def test_poolings(fn, kind, divisor):
    op, = _lowered(fn, _input()).ops
    assert isinstance(op, ops.Pool2D)
    assert (op.kind, op.ksize, op.stride, op.pad, op.divisor) == (kind, (3, 3), (2, 2),
                                                                   (1, 1), divisor)


@pytest.mark.parametrize('axis', [(2, 3), (3, 2)])
def test_a_mean_over_the_spatial_axes(axis):
    op, = _lowered(lambda x: F.mean(x, axis=axis, keepdims=True), _input()).ops
    assert isinstance(op, ops.GlobalMean) and op.keepdims


@pytest.mark.parametrize('fn, inputs', [
    (lambda x: F.mean(x, axis=(1, 2)), [_input()]),
    (lambda x: F.max_pooling_nd(x, 2), [_input((1, 2, 4, 4, 4))]),
    (lambda x: F.convolution_2d(x, numpy.ones((2, 3, 1, 1), numpy.float16)),
     [_input(dtype=numpy.float16)]),
    (lambda x, w: F.convolution_2d(x, w), [_input(), _input((2, 3, 1, 1))]),
    (lambda x: F.tanh(x), [_input()]),
    (lambda x, w: F.linear(x, w), [_input((3, 5)), _input((4, 5))]),
    (lambda x: F.linear(x, numpy.ones((4, 5), numpy.float16)), [_input((3, 5), numpy.float16)]),
], ids=['mean-axes-1-2', 'pooling-3d', 'float16-convolution', 'convolution-by-an-input',
        'tanh', 'linear-by-an-input', 'float16-linear'])
def test_what_stays_a_node(fn, inputs):
    assert all(isinstance(op, NodeOp) for op in _lowered(fn, *inputs).ops)


@pytest.mark.parametrize('axes', [(2, 3), (0, 2, 3)])
def test_a_product_scaling_the_channels(axes):
    # F.scale(x, y, axis=0) reshapes y to (N, C, 1, 1) and broadcasts it: the product becomes
    # a channel scaling of x by the unbroadcast factor.
    def fn(x):
        factor = F.mean(x, axis=axes, keepdims=True)
        return x * F.broadcast_to(F.tanh(factor), x.shape)

    g = _lowered(fn, _input())
    scale = g.ops[-1]
    assert isinstance(scale, ops.ChannelScale)
    assert g.values[scale.inputs[1]].shape == ((1,) if 0 in axes else (2,)) + (3, 1, 1)
    assert scale.inputs[0] == g.inputs[0]


def test_a_product_that_does_not_scale_channels_stays_a_node():
    g = _lowered(lambda x: x * F.broadcast_to(F.tanh(_input((1, 1, 8, 8))), x.shape), _input())
    assert isinstance(g.ops[-1], NodeOp)


def test_a_join_along_the_channels_and_not_along_another_axis():
    op, = _lowered(lambda x: F.concat([x, x], axis=1), _input()).ops
    assert isinstance(op, ops.Concat)
    op, = _lowered(lambda x: F.concat([x, x], axis=2), _input()).ops
    assert isinstance(op, NodeOp)
    op, = _lowered(lambda x: F.concat([x, x], axis=1), _input((2, 3))).ops
    assert isinstance(op, NodeOp)


def test_a_resize_keeps_its_interpolation_matrices():
    op, = _lowered(lambda x: F.resize_images(x, (5, 3)), _input()).ops
    assert isinstance(op, ops.Resample)
    assert op.rows.shape == (5, 8) and op.cols.shape == (3, 8)
    numpy.testing.assert_allclose(op.rows.sum(axis=1), 1, rtol=1e-6)
    op, = _lowered(lambda x: F.resize_images(x, (5, 3)), _input(dtype=numpy.float16)).ops
    assert isinstance(op, NodeOp)
