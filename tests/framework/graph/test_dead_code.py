"""Dead-code elimination: ops whose outputs nothing reads are removed, and nothing else."""

import numpy

import framework.functions as F
from framework import graph
from framework.graph.dead_code import eliminate_dead_ops
from framework.graph.graph import NodeOp


def _labels(g):
    return [op.node.label for op in g.ops if isinstance(op, NodeOp)]


def test_unread_ops_are_removed_with_what_only_they_read():
    x = numpy.ones((2, 3), numpy.float32)

    def fn(x):
        F.exp(F.tanh(x))  # computed, never used
        return F.relu(x)

    g, _ = graph.trace(fn, x)
    assert _labels(g) == ['Tanh', 'Exp', 'ReLU']
    eliminate_dead_ops(g)
    assert _labels(g) == ['ReLU']


def test_ops_read_by_outputs_or_later_ops_stay():
    x = numpy.ones((2, 3), numpy.float32)
    g, _ = graph.trace(lambda x: (F.tanh(x), F.relu(F.exp(x))), x)
    eliminate_dead_ops(g)
    assert _labels(g) == ['Tanh', 'Exp', 'ReLU']


def test_a_compiled_function_with_dead_code_matches_eager():
    x = numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(2, 3)

    def fn(x):
        F.sigmoid(x)
        return F.relu(x) * 2

    numpy.testing.assert_array_equal(graph.compile(fn)(x).array, numpy.maximum(x, 0) * 2)
