"""Memory planning: planned values share a few blocks, never two live ones at once; inputs,
constants and outputs stay out of them; views made by nodes keep their blocks alive."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph
from framework.graph import ops
from framework.graph.memory_plan import MemoryPlan, plan_memory


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


class _Op(ops.Op):
    """An op of a graph built by hand: only how it uses memory matters to the plan."""

    def __init__(self, inputs, outputs, inplace=None, workspace=None):
        super().__init__(inputs, outputs)
        self.inplace = inplace
        self._workspace = workspace or {}

    def workspace(self, graph):
        return dict(self._workspace)


def _hand_built(nbytes, ops_, outputs):
    """A graph of float32 values of ``nbytes`` bytes each (value 0 its input) and the ops
    ``ops_``, returning the values ``outputs``."""
    g = graph.Graph(numpy)
    for n in nbytes:
        g.add_value((n // 4,), numpy.float32)
    g.inputs, g.ops, g.outputs = [0], ops_, outputs
    return g


def test_a_value_takes_the_smallest_free_block_that_fits():
    # a (200 bytes) and b (100) are freed together after c; d (100) fits both.
    x, a, b, c, d, y = range(6)
    g = _hand_built([400, 200, 100, 40, 100, 40], [
        _Op([x], [a]), _Op([x], [b]), _Op([a, b], [c]), _Op([c], [d]), _Op([d], [y]),
    ], [y])
    plan = plan_memory(g)
    _assert_valid(g, plan)
    assert plan.block_of == {a: 0, b: 1, c: 2, d: 1}
    assert plan.block_sizes == [200, 100, 40]


def test_without_a_free_block_that_fits_the_largest_free_one_grows():
    # a (200 bytes) and b (100) are freed together after c; d (300) fits neither.
    x, a, b, c, d, y = range(6)
    g = _hand_built([400, 200, 100, 40, 300, 40], [
        _Op([x], [a]), _Op([x], [b]), _Op([a, b], [c]), _Op([c], [d]), _Op([d], [y]),
    ], [y])
    plan = plan_memory(g)
    _assert_valid(g, plan)
    assert plan.block_of == {a: 0, b: 1, c: 2, d: 0}
    assert plan.block_sizes == [300, 100, 40]


def test_a_value_that_nothing_reads_frees_its_block_at_once():
    x, unread, a, y = range(4)
    g = _hand_built([400, 400, 400, 40], [
        _Op([x], [unread]), _Op([x], [a]), _Op([a], [y]),
    ], [y])
    plan = plan_memory(g)
    _assert_valid(g, plan)
    assert plan.block_of == {unread: 0, a: 0}
    assert plan.block_sizes == [400]


def test_each_workspace_is_the_largest_that_an_op_asks_for():
    x, a, y = range(3)
    g = _hand_built([400, 400, 400], [
        _Op([x], [a], workspace={'col': 64, 'tap': 0}),
        _Op([a], [y], workspace={'col': 16, 'pad': 8}),
    ], [y])
    assert plan_memory(g).workspace == {'col': 64, 'tap': 0, 'pad': 8}


def test_a_new_plan_is_empty():
    plan = MemoryPlan()
    assert plan.block_sizes == [] and plan.block_of == {} and plan.workspace == {}
    assert plan.aliased_outputs == set() and plan.last_reads == {}


def test_an_output_of_a_node_that_nothing_reads(assert_compiles):
    conv1, conv2 = L.Convolution2D(4, 4, 3, pad=1), L.Convolution2D(2, 2, 3, pad=1)

    def fn(x):
        a, _ = F.split_axis(conv1(x), 2, axis=1)
        return F.relu(conv2(a))

    assert_compiles(fn, _input())


def test_every_output_of_a_node_may_be_a_view_of_a_block():
    conv1, conv2 = L.Convolution2D(4, 4, 3, pad=1), L.Convolution2D(2, 2, 3, pad=1)

    def fn(x):
        a, b = F.split_axis(conv1(x), 2, axis=1)
        return F.relu(conv2(a)), b

    fast = graph.compile(fn)
    x = _input()
    plan = plan_memory(fast.graph(x))
    assert plan.aliased_outputs == {1}
    _, first = fast(x)
    kept = first.array.copy()
    fast(-x)
    numpy.testing.assert_array_equal(first.array, kept)


def test_a_value_read_through_a_view_and_later_itself_keeps_its_block(assert_compiles):
    conv0, conv1, conv2 = (L.Convolution2D(4, 4, 3, pad=1) for _ in range(3))

    def fn(x):
        h = conv0(x)
        a = F.relu(F.reshape(h, (2, 8, 3, 6)))  # the view is read here, for the last time
        g = conv2(conv1(x))  # two blocks taken while h is alive
        return F.tanh(h), g, a

    fast = assert_compiles(fn, _input())
    g = fast.graph(_input())
    tanh = next(i for i, op in enumerate(g.ops)
                if isinstance(op, graph.graph.NodeOp) and op.node.label == 'Tanh')
    h = g.ops[tanh].inputs[0]
    assert plan_memory(g).last_reads[h] == len(g.ops)  # tanh's output may be a view of h


@pytest.mark.parametrize('combine', [
    lambda h: h + F.flip(h, axis=3),
    lambda h: h * h[:, :, :1, :1],
], ids=['sum', 'channel scale'])
def test_an_op_in_place_over_a_value_that_it_also_reads_through_a_view(combine,
                                                                       assert_compiles):
    """The sum (or product) is written into its first input's block while its second input,
    a view of that block, is read: the array module must read the view before it is
    overwritten (NumPy's and CuPy's ufuncs copy an input that overlaps the output)."""
    fast = assert_compiles(lambda x: F.tanh(combine(F.relu(F.tanh(x)))), _input())
    g = fast.graph(_input())
    op, = (op for op in g.ops if isinstance(op, (ops.Add, ops.ChannelScale)))
    plan = plan_memory(g)
    assert plan.block_of[op.outputs[0]] == plan.block_of[op.inputs[0]]
