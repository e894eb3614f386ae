"""Layouts: convolutions and poolings work channels-last, nodes channels-first, the ops in
between follow their input; a conversion is inserted once per value and layout, constants
are converted once, and the graph's outputs are channels-first."""

import numpy

import framework.functions as F
import framework.links as L
from framework import graph
from framework.graph import ops
from framework.graph.graph import NCHW, NHWC


def _input(shape=(2, 3, 6, 6)):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def _optimized(fn, *inputs):
    return graph.compile(fn).graph(*inputs)


def _kinds(g) -> list[str]:
    return [type(op).__name__ for op in g.ops]


def _assert_consistent(g):
    """Every op reads its inputs in the layouts it recorded, which are those of the values
    (a conversion, the other layout); the graph's outputs are channels-first."""
    for op in g.ops:
        if isinstance(op, ops.Transpose):
            assert {g.values[op.inputs[0]].layout, op.layout} == {NCHW, NHWC}
            continue
        assert op.in_layouts == [g.values[v].layout for v in op.inputs]
        for v, required in zip(op.inputs, op.input_layouts(g)):
            assert required is None or len(g.values[v].shape) != 4 or (
                g.values[v].layout == required)
    assert all(g.values[v].layout == NCHW for v in g.outputs)


def test_convolutions_in_a_row_stay_channels_last():
    conv1, conv2 = L.Convolution2D(3, 4, 3, pad=1), L.Convolution2D(4, 5, 3, pad=1)
    g = _optimized(lambda x: F.max_pooling_2d(conv2(conv1(x)), 2), _input())
    _assert_consistent(g)
    assert _kinds(g) == ['Transpose', 'Conv2D', 'Conv2D', 'Pool2D', 'Transpose']
    first, last = g.ops[0], g.ops[-1]
    assert (first.layout, last.layout) == (NHWC, NCHW)
    assert first.inputs == g.inputs and last.outputs == g.outputs


def test_a_value_is_converted_once_per_layout():
    conv1, conv2 = L.Convolution2D(3, 4, 3, pad=1), L.Convolution2D(4, 4, 1)

    def fn(x):
        h = conv1(x)
        return conv2(F.tanh(h) + F.sigmoid(h))

    g = _optimized(fn, _input())
    _assert_consistent(g)
    assert _kinds(g) == ['Transpose', 'Conv2D', 'Transpose', 'NodeOp', 'NodeOp', 'Add',
                         'Transpose', 'Conv2D', 'Transpose']
    to_nchw = g.ops[2]
    tanh, sigmoid = g.ops[3:5]
    assert tanh.inputs == sigmoid.inputs == to_nchw.outputs


def test_ops_between_follow_their_input():
    conv, bn = L.Convolution2D(3, 4, 3), L.BatchNormalization(4)

    def fn(x):
        h = F.max_pooling_2d(conv(x), 2)
        return F.mean(F.relu(bn(h)) + h, axis=(2, 3))

    g = _optimized(fn, _input())
    _assert_consistent(g)
    assert _kinds(g) == ['Transpose', 'Conv2D', 'Pool2D', 'Affine', 'Activation', 'Add',
                         'GlobalMean']
    assert all(op.in_layouts[0] == NHWC for op in g.ops[1:])


def test_a_channels_first_value_added_to_a_channels_last_one_is_converted():
    pool = lambda x: F.max_pooling_2d(x, 1)  # noqa: E731 (a Pool2D: channels-last)
    g = _optimized(lambda x, y: pool(x) + y, _input(), _input())
    _assert_consistent(g)
    assert _kinds(g) == ['Transpose', 'Pool2D', 'Transpose', 'Add', 'Transpose']
    assert g.ops[2].inputs == [g.inputs[1]]


def test_a_constant_is_converted_once_as_a_constant():
    conv1, conv2 = L.Convolution2D(3, 4, 3), L.Convolution2D(3, 4, 3)
    residual = _input((2, 4, 4, 4))
    g = _optimized(lambda x: (F.relu(conv1(x) + residual), conv2(x) + residual), _input())
    _assert_consistent(g)
    assert _kinds(g) == ['Transpose', 'Conv2D', 'Conv2D', 'Transpose', 'Transpose']
    first, second = g.ops[1:3]
    assert first.inputs[1] == second.inputs[1]
    held = g.values[first.inputs[1]]
    assert held.layout == NHWC
    numpy.testing.assert_array_equal(held.const, residual.transpose(0, 2, 3, 1))


def test_values_of_other_ranks_keep_their_layout():
    linear = L.Linear(4, 3)
    g = _optimized(lambda x: F.relu(linear(F.relu(x))), _input((2, 4)))
    _assert_consistent(g)
    assert _kinds(g) == ['Activation', 'Linear', 'Activation']
    assert {value.layout for value in g.values} == {NCHW}
