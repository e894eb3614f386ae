"""Tracing a define-by-run function into a :class:`~framework.graph.Graph`."""

import threading

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import function_node, graph
from framework.function_node import FunctionNode
from framework.graph.graph import NCHW, NHWC, NodeOp, Value


def _input(shape=(2, 3, 8, 8), dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _labels(g):
    return [op.describe() for op in g.ops]


def test_trace_records_each_application_in_order():
    conv = L.Convolution2D(3, 4, 3, pad=1)
    g, structure = graph.trace(lambda x: F.tanh(F.relu(conv(x))), _input())
    assert structure.type is None
    assert _labels(g) == ['ConvolutionND', 'ReLU', 'Tanh']
    assert all(isinstance(op, NodeOp) for op in g.ops)
    assert g.xp is numpy
    x, = g.inputs
    assert (g.values[x].shape, g.values[x].dtype, g.values[x].const) == (
        (2, 3, 8, 8), numpy.float32, None)
    conv_op, relu_op, tanh_op = g.ops
    assert conv_op.inputs[0] == x and relu_op.inputs == conv_op.outputs
    assert tanh_op.inputs == relu_op.outputs and g.outputs == tanh_op.outputs
    assert g.values[g.outputs[0]].shape == (2, 4, 8, 8)


def test_parameters_become_constants_holding_their_arrays():
    conv = L.Convolution2D(3, 4, 3)
    g, _ = graph.trace(conv, _input())
    op, = g.ops
    W, b = (g.values[v] for v in op.inputs[1:])
    assert W.const is conv.W.array and b.const is conv.b.array
    assert g.values[op.inputs[0]].const is None


def test_an_array_used_twice_is_one_constant():
    W = _input((4, 3, 1, 1), seed=1)
    g, _ = graph.trace(lambda x: F.convolution_2d(x, W) + F.convolution_2d(x, W), _input())
    first, second = g.ops[:2]
    assert first.inputs == second.inputs
    assert sum(value.const is not None for value in g.values) == 1


@pytest.mark.parametrize('structure', [tuple, list])
def test_several_outputs_keep_their_structure(structure):
    g, traced = graph.trace(lambda x: structure((F.relu(x), F.tanh(x), F.relu(x))), _input())
    assert traced.type is structure
    assert len(g.outputs) == 3 and len(set(g.outputs)) == 3


def test_only_the_outermost_applications_are_recorded():
    class ReluTwice(FunctionNode):
        def forward(self, inputs):
            return F.relu(F.relu(inputs[0])).array,

    g, _ = graph.trace(lambda x: ReluTwice().apply((x,))[0], _input())
    assert _labels(g) == ['ReluTwice']


def test_trace_runs_without_backprop_and_keeps_the_configuration():
    seen = []

    def fn(x):
        seen.append((framework.config.enable_backprop, framework.config.train))
        return F.relu(x)

    with framework.using_config('train', True):
        graph.trace(fn, _input())
    assert seen == [(False, True)]
    assert framework.config.enable_backprop


def test_a_variable_input_is_traced_as_its_array():
    x = _input()
    g, _ = graph.trace(F.relu, framework.Variable(x))
    assert g.values[g.inputs[0]].shape == x.shape


def test_values_computed_outside_framework_functions_are_constants():
    # x.array * 2 is plain NumPy: the graph holds what this call computed.
    x = _input()
    g, _ = graph.trace(lambda v: F.relu(v) + v.array * 2, x)
    add = g.ops[-1]
    assert g.values[add.inputs[1]].const is not None
    numpy.testing.assert_array_equal(g.values[add.inputs[1]].const, x * 2)


def test_trace_needs_an_input():
    with pytest.raises(ValueError, match='at least one example input'):
        graph.trace(F.relu)


def test_trace_rejects_a_non_array_input():
    with pytest.raises(TypeError, match='input 1 must be an array or a Variable, got list'):
        graph.trace(lambda x, y: F.relu(x), _input(), [1.0, 2.0])


def test_trace_rejects_a_function_applying_no_framework_function():
    with pytest.raises(ValueError, match='applied no framework function'):
        graph.trace(lambda x: x.array * 2, _input())


def test_tracing_stops_when_the_function_raises():
    def broken(x):
        F.relu(x)
        raise RuntimeError('broken')

    with pytest.raises(RuntimeError, match='broken'):
        graph.trace(broken, _input())
    assert function_node.tracers == []


def test_applications_in_another_thread_are_not_recorded():
    def fn(x):
        worker = threading.Thread(target=lambda: F.tanh(numpy.ones(3, numpy.float32)))
        worker.start()
        worker.join()
        return F.relu(x)

    g, _ = graph.trace(fn, _input())
    assert _labels(g) == ['ReLU']


def test_threads_tracing_at_once_record_their_own_applications():
    barrier = threading.Barrier(2, timeout=10)
    labels = {}

    def work(fn):
        def traced(x):
            barrier.wait()  # both traces have begun
            y = fn(x)
            barrier.wait()
            return y

        try:
            labels[fn] = _labels(graph.trace(traced, _input())[0])
        except ValueError as error:
            labels[fn] = str(error)

    workers = [threading.Thread(target=work, args=(fn,)) for fn in (F.relu, F.tanh)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert labels == {F.relu: ['ReLU'], F.tanh: ['Tanh']}


def test_graph_helpers():
    g, _ = graph.trace(lambda x: F.relu(x) * F.tanh(x), _input())
    relu, tanh, mul = g.ops
    assert g.producers() == {relu.outputs[0]: relu, tanh.outputs[0]: tanh,
                             mul.outputs[0]: mul}
    assert g.consumers()[g.inputs[0]] == [relu, tanh]
    assert repr(g).splitlines() == [
        f'Graph(inputs={g.inputs}, outputs={g.outputs})',
        f'  {relu.outputs} = ReLU({g.inputs[0]})',
        f'  {tanh.outputs} = Tanh({g.inputs[0]})',
        f'  {mul.outputs} = Mul({relu.outputs[0]}, {tanh.outputs[0]})']


def test_value_physical_shape_and_bytes():
    value = Value((2, 3, 4, 5), numpy.float64)
    assert value.layout == NCHW and value.physical_shape == (2, 3, 4, 5)
    value.layout = NHWC
    assert value.physical_shape == (2, 4, 5, 3)
    assert value.nbytes == 2 * 3 * 4 * 5 * 8
