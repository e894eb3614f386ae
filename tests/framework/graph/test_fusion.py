"""Fusion: a batch normalization, a residual sum and an activation that alone read a
convolution's output are fused into it; nothing else is."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph, initializers
from framework.graph.constant_folding import fold_constants
from framework.graph.fusion import fuse
from framework.graph.lowering import lower


def _input(shape=(2, 3, 6, 6)):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def _fused(fn, *inputs):
    with framework.using_config('train', False):
        g, _ = graph.trace(fn, *inputs)
    fold_constants(g)
    lower(g)
    fuse(g)
    return g


def _kinds(g) -> list[str]:
    return [type(op).__name__ for op in g.ops]


def _bn(channels, seed=0):
    bn = L.BatchNormalization(channels)
    rng = numpy.random.RandomState(seed)
    bn.avg_mean[...] = rng.uniform(-1, 1, channels)
    bn.avg_var[...] = rng.uniform(0.5, 2, channels)
    bn.gamma.array[...] = rng.uniform(0.5, 2, channels)
    bn.beta.array[...] = rng.uniform(-1, 1, channels)
    return bn


def _scale_shift(bn):
    scale = bn.gamma.array / numpy.sqrt(bn.avg_var + bn.eps)
    return scale, bn.beta.array - bn.avg_mean * scale


def test_batch_normalization_is_folded_into_the_filters_and_a_new_bias():
    conv, bn = L.Convolution2D(3, 4, 3, nobias=True), _bn(4)
    W = conv.W.array.copy()
    g = _fused(lambda x: bn(conv(x)), _input())
    op, = g.ops
    scale, shift = _scale_shift(bn)
    numpy.testing.assert_allclose(op.W, W * scale[:, None, None, None], rtol=1e-6)
    numpy.testing.assert_allclose(op.b, shift, rtol=1e-6)
    assert op.outputs == g.outputs
    numpy.testing.assert_array_equal(conv.W.array, W)


def test_batch_normalization_is_folded_into_the_bias():
    conv = L.Convolution2D(3, 4, 3, initial_bias=initializers.Normal(1.0))
    bn = _bn(4)
    b = conv.b.array.copy()
    op, = _fused(lambda x: bn(conv(x)), _input()).ops
    scale, shift = _scale_shift(bn)
    numpy.testing.assert_allclose(op.b, b * scale + shift, rtol=1e-6)
    numpy.testing.assert_array_equal(conv.b.array, b)


def test_residual_and_activation():
    conv1, conv2 = L.Convolution2D(3, 3, 3, pad=1), L.Convolution2D(3, 3, 1)
    g = _fused(lambda x: F.relu(conv2(x) + F.tanh(conv1(x))), _input())
    assert _kinds(g) == ['Conv2D', 'NodeOp', 'Conv2D']
    first, tanh, second = g.ops
    # The convolution moved to where the sum was, after what it adds.
    assert second.residual and second.inputs[1] == tanh.outputs[0]
    assert second.activation == ('relu',) and second.outputs == g.outputs
    assert first.activation is None and not first.residual


def test_the_first_of_two_added_convolutions_takes_the_other_as_residual():
    conv1, conv2 = L.Convolution2D(3, 3, 3, pad=1), L.Convolution2D(3, 3, 1)
    g = _fused(lambda x: F.clipped_relu(conv1(x) + conv2(x), 6.0), _input())
    second, first = g.ops
    assert second.W is conv2.W.array and not second.residual and second.activation is None
    assert first.W is conv1.W.array and first.inputs[1] == second.outputs[0]
    assert first.activation == ('clip', 6.0)


def test_an_output_of_the_graph_is_not_fused_over():
    conv, bn = L.Convolution2D(3, 4, 3), _bn(4)

    def fn(x):
        h = conv(x)
        return h, F.relu(bn(h))

    g = _fused(fn, _input())
    assert _kinds(g) == ['Conv2D', 'Affine', 'Activation']
    assert g.ops[0].outputs[0] == g.outputs[0]


def test_a_value_read_by_two_ops_is_not_fused_over():
    conv = L.Convolution2D(3, 4, 3)

    def fn(x):
        h = conv(x)
        return F.relu(h) * F.tanh(h)

    g = _fused(fn, _input())
    assert _kinds(g) == ['Conv2D', 'Activation', 'NodeOp', 'NodeOp']
    assert g.ops[0].activation is None


def test_a_sum_of_a_value_with_itself_is_not_a_residual():
    conv = L.Convolution2D(3, 4, 3)

    def double(x):
        h = conv(x)
        return h + h

    g = _fused(double, _input())
    assert _kinds(g) == ['Conv2D', 'Add']


def test_what_follows_an_activation_is_not_fused():
    conv, bn = L.Convolution2D(3, 3, 3), _bn(3)
    g = _fused(lambda x: bn(F.relu(conv(x))) + 1, _input())
    assert _kinds(g) == ['Conv2D', 'Affine', 'NodeOp']
    assert g.ops[0].activation == ('relu',)
    g = _fused(lambda x: F.relu(F.relu(conv(x)) + x[:, :, 1:-1, 1:-1]), _input())
    assert _kinds(g) == ['Conv2D', 'NodeOp', 'Add', 'Activation']
    assert g.ops[0].activation == ('relu',)


def test_a_batch_normalization_after_the_sum_is_not_folded():
    conv, bn = L.Convolution2D(3, 3, 3, pad=1), _bn(3)
    g = _fused(lambda x: bn(conv(x) + x), _input())
    assert _kinds(g) == ['Conv2D', 'Affine']
    assert g.ops[0].residual


@pytest.mark.parametrize('fn', [
    lambda x, conv, bn: bn(conv(x) + x),
    lambda x, conv, bn: bn(F.relu(conv(x))),
    lambda x, conv, bn: F.relu(conv(x)) + x,
    lambda x, conv, bn: (conv(x) + x) + x,
    lambda x, conv, bn: F.relu(F.relu(conv(x))),
], ids=['bn after residual', 'bn after activation', 'sum after activation',
        'sum after residual', 'activation after activation'])
def test_fusing_again_fuses_nothing_more(fn):
    """A convolution that carries a residual or an activation takes nothing more: a batch
    normalization, a sum or an activation after them is not what they would compute fused."""
    conv, bn = L.Convolution2D(3, 3, 3, pad=1), _bn(3)
    g = _fused(lambda x: fn(x, conv, bn), _input())
    before = repr(g)
    W, b = g.ops[0].W.copy(), g.ops[0].b.copy()
    fuse(g)
    assert repr(g) == before
    numpy.testing.assert_array_equal(g.ops[0].W, W)
    numpy.testing.assert_array_equal(g.ops[0].b, b)


def test_a_convolution_read_by_nothing_is_left_alone():
    conv = L.Convolution2D(3, 4, 3)

    def unread(x):
        conv(x)
        return F.relu(x)

    g = _fused(unread, _input())
    assert _kinds(g) == ['Conv2D', 'Activation']
    assert g.ops[0].activation is None and not g.ops[0].residual
