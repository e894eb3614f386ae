"""Memory planning: planned values share a few blocks, never two live ones at once; inputs,
constants and outputs stay out of them; views made by nodes keep their blocks alive."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph
from framework.graph import ops
from framework.graph.memory_plan import plan_memory


def _input(shape=(2, 4, 6, 6)):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def _optimized(fn, *inputs):
    return graph.compile(fn).graph(*inputs)


def _writer(g) -> dict[int, int]:
    return {v: i for i, op in enumerate(g.ops) for v in op.outputs}


def _assert_valid(g, plan):
    """Each block holds its values, and a value is only written into a block once the values
    before it there are read for the last time (by the op writing it, in place)."""
    writer = _writer(g)
    by_block: dict[int, list[int]] = {}
    for v, block in plan.block_of.items():
        assert plan.block_sizes[block] >= g.values[v].nbytes
        by_block.setdefault(block, []).append(v)
    for values in by_block.values():
        values.sort(key=writer.get)
        for before, after in zip(values, values[1:]):
            last = plan.last_reads.get(before, writer[before])
            assert last <= writer[after]
            if last == writer[after]:
                op = g.ops[last]
                assert op.inplace is not None and op.inputs[op.inplace] == before


def _assert_outside_blocks(g, plan):
    constants = {v for v, value in enumerate(g.values) if value.const is not None}
    assert not set(plan.block_of) & (set(g.inputs) | set(g.outputs) | constants)


class Chain(framework.Chain):
    """``depth`` convolutions (with batch normalization and ReLU) of one size."""

    def __init__(self, depth, channels=4):
        super().__init__()
        with self.init_scope():
            for i in range(depth):
                setattr(self, f'conv{i}', L.Convolution2D(channels, channels, 3, pad=1))
                setattr(self, f'bn{i}', L.BatchNormalization(channels))
        self.depth = depth

    def forward(self, x):
        for i in range(self.depth):
            x = F.relu(getattr(self, f'bn{i}')(getattr(self, f'conv{i}')(x)))
        return x


def test_a_deep_chain_takes_two_blocks():
    g = _optimized(Chain(8), _input())
    plan = plan_memory(g)
    _assert_valid(g, plan)
    _assert_outside_blocks(g, plan)
    assert len(plan.block_of) == 9  # the input's conversion and the convolutions
    assert len(plan.block_sizes) == 2
    assert plan.block_sizes == [g.values[g.inputs[0]].nbytes] * 2


def test_in_place_ops_take_their_input_block():
    conv, bn = L.Convolution2D(4, 4, 3, pad=1), L.BatchNormalization(4)
    g = _optimized(lambda x: conv(F.relu(bn(F.max_pooling_2d(x, 2)))), _input())
    kinds = [type(op) for op in g.ops]
    assert kinds == [ops.Transpose, ops.Pool2D, ops.Affine, ops.Activation, ops.Conv2D,
                     ops.Transpose]
    plan = plan_memory(g)
    _assert_valid(g, plan)
    pool, affine, activation = (plan.block_of[g.ops[i].outputs[0]] for i in (1, 2, 3))
    assert pool == affine == activation
    assert plan.block_of[g.ops[4].outputs[0]] != pool


def test_a_sum_takes_its_first_input_block():
    g = _optimized(lambda x: F.max_pooling_2d(x, 2) + F.average_pooling_2d(x, 2), _input())
    add, = (op for op in g.ops if isinstance(op, ops.Add))
    plan = plan_memory(g)
    _assert_valid(g, plan)
    assert plan.block_of[add.outputs[0]] == plan.block_of[add.inputs[0]]


def test_no_in_place_over_a_value_read_later():
    conv = L.Convolution2D(4, 4, 3, pad=1)

    def fn(x):
        h = F.max_pooling_2d(x, 2)
        return conv(F.relu(h) * 1) + h

    g = _optimized(fn, _input())
    plan = plan_memory(g)
    _assert_valid(g, plan)
    pool, = (op for op in g.ops if isinstance(op, ops.Pool2D))
    activation, = (op for op in g.ops if isinstance(op, ops.Activation))
    assert plan.block_of[activation.outputs[0]] != plan.block_of[pool.outputs[0]]


class Views(framework.Chain):
    """A reshape (a view) of a planned value, read after three more convolutions."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            for i in range(4):
                setattr(self, f'conv{i}', L.Convolution2D(4, 4, 3, pad=1))

    def forward(self, x):
        n = x.shape[0]
        view = F.reshape(F.relu(self.conv0(x)), (n, -1))
        h = self.conv3(self.conv2(self.conv1(x)))
        return F.tanh(F.concat((view, F.reshape(h, (n, -1))), axis=1))


def test_the_block_under_a_view_stays_alive_while_the_view_is_read():
    g = _optimized(Views(), _input())
    plan = plan_memory(g)
    _assert_valid(g, plan)
    reshape = next(op for op in g.ops if isinstance(op, graph.graph.NodeOp))
    concat = next(i for i, op in enumerate(g.ops) if reshape.outputs[0] in op.inputs)
    assert plan.last_reads[reshape.inputs[0]] >= concat
    assert len(plan.block_sizes) >= 3


def test_a_view_read_late_keeps_its_value(assert_compiles):
    x = _input()
    assert_compiles(Views(), x)


@pytest.mark.parametrize('last, aliased', [
    (lambda h: F.reshape(h, (h.shape[0], -1)), {0}),
    (F.relu, set()),
    (lambda h: F.mean(h, axis=(2, 3)), set()),
], ids=['view', 'planned', 'global mean'])
def test_outputs_that_may_be_views_of_a_block(last, aliased):
    conv1, conv2 = L.Convolution2D(4, 4, 3, pad=1), L.Convolution2D(4, 4, 3, pad=1)
    g = _optimized(lambda x: (last(conv2(F.tanh(conv1(x)))), conv1(x)), _input())
    plan = plan_memory(g)
    _assert_outside_blocks(g, plan)
    assert plan.aliased_outputs == aliased


def test_a_plan_over_many_kinds_of_ops():
    conv1, conv2 = L.Convolution2D(4, 4, 3, pad=1), L.Convolution2D(4, 4, 1)
    bn, se = L.BatchNormalization(4), L.SEBlock(4, ratio=2)

    def fn(x):
        n = x.shape[0]
        h = F.relu(bn(conv1(x)))
        r = F.relu(conv2(se(h)) + h)
        p = F.max_pooling_2d(r, 2)
        flat = F.concat((F.reshape(p, (n, -1)), F.mean(r, axis=(2, 3))), axis=1)
        return flat, p, F.tanh(h)

    g = _optimized(fn, _input())
    plan = plan_memory(g)
    _assert_valid(g, plan)
    _assert_outside_blocks(g, plan)
    assert len(plan.block_sizes) < len(plan.block_of)


def test_the_workspace_fits_every_op():
    conv1, conv2 = L.Convolution2D(4, 8, 3, pad=1), L.Convolution2D(8, 8, 5, pad=2, groups=2)
    g = _optimized(lambda x: conv2(conv1(x)), _input())
    plan = plan_memory(g)
    for op in g.ops:
        for name, nbytes in op.workspace(g).items():
            assert plan.workspace[name] >= nbytes
    assert plan.workspace['col'] == 2 * 6 * 6 * 8 * 25 * 4
