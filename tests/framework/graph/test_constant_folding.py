"""Constant folding: the ops that read constants only are computed once and disappear."""

import numpy

import framework.functions as F
import framework.links as L
from framework import graph
from framework.graph.constant_folding import fold_constants


def _input(shape=(2, 3, 4, 4)):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def test_ops_on_constants_become_constants():
    linear = L.Linear(4, 3)
    g, _ = graph.trace(lambda x: F.linear(x, F.tanh(linear.W * 2), linear.b + 1),
                       _input((2, 4)))
    fold_constants(g)
    op, = g.ops
    assert op.node.label == 'LinearFunction'
    W, b = (g.values[v].const for v in op.inputs[1:])
    numpy.testing.assert_allclose(W, numpy.tanh(linear.W.array * 2))
    numpy.testing.assert_allclose(b, linear.b.array + 1)


def test_ops_reading_an_input_stay():
    g, _ = graph.trace(lambda x: F.relu(x) * F.exp(numpy.ones((1, 3, 1, 1), numpy.float32)),
                       _input())
    fold_constants(g)
    assert [op.node.label for op in g.ops] == ['ReLU', 'Mul']


def test_an_op_with_several_outputs():
    W = _input((4, 6))
    g, _ = graph.trace(lambda x: F.matmul(x, F.concat(F.split_axis(W, 2, 1)[::-1], 1)),
                       _input((2, 4)))
    fold_constants(g)
    op, = g.ops
    numpy.testing.assert_array_equal(g.values[op.inputs[1]].const,
                                     numpy.concatenate([W[:, 3:], W[:, :3]], 1))


def test_the_parameters_are_not_changed():
    conv = L.Convolution2D(3, 2, 1)
    W = conv.W.array.copy()
    g, _ = graph.trace(lambda x: F.convolution_2d(x, conv.W * 3), _input())
    fold_constants(g)
    numpy.testing.assert_array_equal(conv.W.array, W)
