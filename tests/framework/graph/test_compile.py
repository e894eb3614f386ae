"""``framework.graph.compile``: the compiled function returns what the function returns in
inference, for the fused patterns, small networks and nodes in between, and behaves as a
function (fresh outputs, a graph per input signature, :meth:`reset`)."""

import collections
import copy
import pickle
import threading

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph, initializers
from framework.graph import ops
from framework.graph.graph import NodeOp
from framework.testing import devices

DTYPES = (numpy.float32, numpy.float64)


def _input(shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _ops(g, kind) -> list:
    return [op for op in g.ops if isinstance(op, kind)]


def _node_labels(g) -> list[str]:
    return [op.node.label for op in _ops(g, NodeOp)]


class ConvBN(framework.Chain):
    """A convolution (without bias) and a batch normalization."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, groups=1,
                 dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(in_channels, out_channels, ksize, stride, pad,
                                        nobias=True, groups=groups,
                                        initialW=initializers.LeCunNormal(dtype=dtype))
            self.bn = L.BatchNormalization(out_channels, dtype=dtype)

    def forward(self, x):
        return self.bn(self.conv(x))


# --- fusions and small networks -----------------------------------------------------------


@pytest.mark.parametrize('ksize, stride, pad', [(1, 1, 0), (1, 2, 0), (3, 1, 1), (3, 2, 1),
                                                (5, 2, 2), (7, 2, 3)])
@pytest.mark.parametrize('groups', [1, 2, 8])
@pytest.mark.parametrize('dtype', DTYPES)
def test_batch_normalization_is_folded_into_the_convolution(ksize, stride, pad, groups, dtype,
                                                            assert_compiles,
                                                            randomize_statistics):
    link = ConvBN(8, 8, ksize, stride, pad, groups, dtype)
    randomize_statistics(link)
    x = _input((3, 8, 12, 12), dtype)
    g = assert_compiles(link, x).graph(x)
    conv, = _ops(g, ops.Conv2D)
    assert not _ops(g, ops.Affine) and conv.b is not None
    assert [type(op) for op in g.ops] == [ops.Transpose, ops.Conv2D, ops.Transpose]


@pytest.mark.parametrize('activation, expected', [
    (F.relu, ('relu',)),
    (lambda h: F.clipped_relu(h, 6.0), ('clip', 6.0)),
    (lambda h: F.clipped_relu(h, 0.25), ('clip', 0.25)),
], ids=['relu', 'relu6', 'clip0.25'])
def test_activation_is_fused(activation, expected, assert_compiles, randomize_statistics):
    link = ConvBN(3, 8, 3, pad=1)
    randomize_statistics(link)
    x = _input((2, 3, 9, 9))
    g = assert_compiles(lambda x: activation(link(x)), x).graph(x)
    conv, = _ops(g, ops.Conv2D)
    assert conv.activation == expected
    assert not _ops(g, ops.Activation) and not _ops(g, ops.Affine)


class SmallClassifier(framework.Chain):
    """conv-bn-relu, max pooling, conv-bn-relu6, average pooling, global mean, linear,
    softmax."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.block1 = ConvBN(3, 8, 3, pad=1)
            self.block2 = ConvBN(8, 16, 3, stride=2, pad=1)
            self.fc = L.Linear(16, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.block1(x)), 3, 2, 1, cover_all=False)
        h = F.average_pooling_2d(F.clipped_relu(self.block2(h), 6.0), 3, 1, 1)
        return F.softmax(self.fc(F.mean(h, axis=(2, 3))))


@pytest.mark.parametrize('batch', [1, 3])
def test_small_classifier(batch, assert_compiles, randomize_statistics):
    model = SmallClassifier()
    randomize_statistics(model)
    x = _input((batch, 3, 16, 16))
    g = assert_compiles(model, x).graph(x)
    assert [type(op) for op in g.ops] == [
        ops.Transpose, ops.Conv2D, ops.Pool2D, ops.Conv2D, ops.Pool2D, ops.GlobalMean,
        ops.Linear, NodeOp]
    assert _node_labels(g) == ['Softmax']


# --- fused patterns and nodes in between --------------------------------------------------


class Residual(framework.Chain):
    """relu(bn(conv(relu(bn(conv(x))))) + shortcut(x)), the shortcut the identity or a
    strided conv-bn."""

    def __init__(self, channels, out_channels, stride, dtype):
        super().__init__()
        with self.init_scope():
            self.a = ConvBN(channels, out_channels, 3, stride, 1, dtype=dtype)
            self.b = ConvBN(out_channels, out_channels, 3, 1, 1, dtype=dtype)
            if stride != 1 or channels != out_channels:
                self.projection = ConvBN(channels, out_channels, 1, stride, dtype=dtype)

    def forward(self, x):
        shortcut = self.projection(x) if hasattr(self, 'projection') else x
        return F.relu(self.b(F.relu(self.a(x))) + shortcut)


@pytest.mark.parametrize('channels, out_channels, stride', [(8, 8, 1), (8, 16, 2), (8, 16, 1)],
                         ids=['identity', 'projection-stride2', 'projection'])
@pytest.mark.parametrize('dtype', DTYPES)
def test_residual_block(channels, out_channels, stride, dtype, assert_compiles,
                        randomize_statistics):
    block = Residual(channels, out_channels, stride, dtype)
    randomize_statistics(block)
    x = _input((2, channels, 8, 8), dtype)
    g = assert_compiles(lambda x: block(block(x) if channels == out_channels else x), x
                        ).graph(x)
    assert not _ops(g, ops.Affine) and not _ops(g, ops.Add) and not _ops(g, ops.Activation)
    fused = [conv for conv in _ops(g, ops.Conv2D) if conv.residual]
    assert len(fused) == (2 if channels == out_channels else 1)
    assert all(conv.activation == ('relu',) for conv in fused)
    # Per block, the first convolution and the one that adds the residual apply the ReLU.
    activated = [conv for conv in _ops(g, ops.Conv2D) if conv.activation is not None]
    assert len(activated) == 2 * len(fused)
    assert len(_ops(g, ops.Transpose)) == 2


def test_a_value_read_twice_is_not_fused_into_its_convolution(assert_compiles):
    conv1, conv2 = L.Convolution2D(3, 4, 3, pad=1), L.Convolution2D(4, 4, 1)
    x = _input((2, 3, 6, 6))

    def fn(x):
        h = conv1(x)
        return F.relu(h) + conv2(h)

    g = assert_compiles(fn, x).graph(x)
    first, second = _ops(g, ops.Conv2D)
    assert first.activation is None and not first.residual
    assert second.residual and len(_ops(g, ops.Activation)) == 1


class Mixed(framework.Chain):
    """Convolutions with nodes between them that keep channels-first: tanh, concat, a
    squeeze-excitation (global mean, linear, sigmoid, broadcast multiply), reshape."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = ConvBN(3, 4, 3, pad=1)
            self.conv2 = L.Convolution2D(4, 4, 3, pad=1)
            self.se = L.SEBlock(8, ratio=2)
            self.conv3 = L.Convolution2D(8, 6, 1)
            self.fc = L.Linear(8, 8)

    def forward(self, x):
        h1 = F.relu(self.conv1(x))
        h2 = self.conv2(F.tanh(h1))
        c = F.concat((h2, h1), axis=1)
        n, channels = c.shape[:2]
        gate = F.sigmoid(self.fc(F.mean(c, axis=(2, 3))))
        c = c * F.broadcast_to(F.reshape(gate, (n, channels, 1, 1)), c.shape)
        h3 = self.conv3(self.se(c))
        return F.reshape(h3, (n, -1))


@pytest.mark.parametrize('batch', [1, 3])
def test_nodes_between_convolutions(batch, assert_compiles, randomize_statistics):
    model = Mixed()
    randomize_statistics(model)
    x = _input((batch, 3, 8, 8))
    g = assert_compiles(model, x).graph(x)
    assert len(_ops(g, ops.Conv2D)) == 3
    assert {'Tanh', 'Sigmoid', 'Reshape'} <= set(_node_labels(g))
    assert len(_ops(g, ops.Concat)) == 1


def test_channels_last_ops_without_a_convolution(assert_compiles, randomize_statistics):
    bn = L.BatchNormalization(3)
    randomize_statistics(bn)

    def fn(x):
        h = F.max_pooling_2d(x, 3, 1, 1)
        return F.mean(F.clipped_relu(bn(h), 0.5) + h, axis=(2, 3), keepdims=True)

    g = assert_compiles(fn, _input((2, 3, 7, 7))).graph(_input((2, 3, 7, 7)))
    assert [type(op) for op in g.ops] == [ops.Transpose, ops.Pool2D, ops.Affine,
                                          ops.Activation, ops.Add, ops.GlobalMean]


def test_batch_normalization_and_activation_before_a_convolution(assert_compiles,
                                                                 randomize_statistics):
    bn, conv = L.BatchNormalization(3), L.Convolution2D(3, 4, 3)
    randomize_statistics(bn)
    g = assert_compiles(lambda x: conv(F.relu(bn(x))), _input((2, 3, 7, 5))).graph(
        _input((2, 3, 7, 5)))
    assert [type(op) for op in g.ops] == [ops.Affine, ops.Activation, ops.Transpose,
                                          ops.Conv2D, ops.Transpose]


def test_sums_with_a_constant(assert_compiles):
    constant = _input((2, 3, 3, 3), seed=1)
    pool = lambda x: F.max_pooling_2d(x, 2)  # noqa: E731 (a Pool2D: channels-last)
    g = assert_compiles(lambda x: (pool(x) + constant, constant + pool(x)),
                        _input((2, 3, 6, 6))).graph(_input((2, 3, 6, 6)))
    assert len(_ops(g, ops.Add)) == 1 and _node_labels(g) == ['Add']


def test_an_input_that_is_not_contiguous(assert_compiles):
    conv1, conv2 = L.Convolution2D(3, 4, 1), L.Convolution2D(3, 4, 3)
    x = _input((2, 3, 9, 12))[:, :, ::-1, ::2]
    assert_compiles(lambda x: (conv1(x), conv2(F.relu(x)), F.mean(x, axis=(2, 3))), x)


def test_values_nothing_reads(assert_compiles):
    conv1, conv2 = L.Convolution2D(3, 4, 3), L.Convolution2D(3, 4, 3)

    def fn(x):
        conv2(x)
        F.tanh(conv1(x))
        return F.relu(conv1(x))

    assert_compiles(fn, _input((2, 3, 6, 6)))


Outputs = collections.namedtuple('Outputs', 'h pooled prob mean')


@pytest.mark.parametrize('structure', [
    tuple, list, lambda values: Outputs(*values),
    lambda values: dict(zip(('h', 'pooled', 'prob', 'mean'), values))],
    ids=['tuple', 'list', 'namedtuple', 'dict'])
def test_several_outputs(structure, assert_compiles, randomize_statistics):
    model = SmallClassifier()
    randomize_statistics(model)

    def fn(x):
        h = F.relu(model.block1(x))
        return structure((h, F.max_pooling_2d(h, 2), model(x), F.mean(h, axis=(2, 3))))

    assert_compiles(fn, _input((2, 3, 8, 8)))


def test_the_same_output_twice(assert_compiles):
    conv = L.Convolution2D(3, 4, 3)
    fast = assert_compiles(lambda x: (conv(x), conv(x) * 1, conv(x)), _input((1, 3, 5, 5)))
    first, _, third = fast(_input((1, 3, 5, 5)))
    assert not numpy.shares_memory(first.array, third.array)


def test_an_input_used_as_the_residual_and_an_output(assert_compiles):
    conv = L.Convolution2D(3, 3, 3, pad=1)
    assert_compiles(lambda x: (F.relu(conv(x) + x), x * 1), _input((2, 3, 5, 5)))


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('model', [SmallClassifier, Mixed], ids=['classifier', 'mixed'])
def test_on_each_device(device, model, assert_compiles, randomize_statistics):
    model = model()
    randomize_statistics(model)
    model.to_device(device)
    assert_compiles(model, device.send(_input((2, 3, 8, 8))))


# --- behaviour ----------------------------------------------------------------------------


@pytest.mark.parametrize('output', ['transposed', 'view', 'global mean', 'node'])
def test_outputs_of_two_calls_are_independent(output, eager):
    conv = L.Convolution2D(3, 4, 3, pad=1)
    last = {
        'transposed': F.relu,
        'view': lambda h: F.reshape(F.relu(h), (h.shape[0], -1)),
        'global mean': lambda h: F.mean(h, axis=(2, 3)),
        'node': F.tanh,
    }[output]
    fast = graph.compile(lambda x: last(conv(x)))
    x1, x2 = _input((2, 3, 6, 6), seed=1), _input((2, 3, 6, 6), seed=2)
    y1 = fast(x1).array
    y2 = fast(x2).array
    assert not numpy.shares_memory(y1, y2)
    for y, x in ((y1, x1), (y2, x2)):
        numpy.testing.assert_allclose(y, eager(lambda x: last(conv(x)), x).array, rtol=1e-5,
                                      atol=1e-6)


def test_a_constant_output_is_a_new_array_at_each_call(eager):
    conv = L.Convolution2D(3, 4, 3)
    fast = graph.compile(lambda x: (F.relu(conv(x)), F.tanh(conv.W)))
    x = _input((2, 3, 5, 5))
    first = fast(x)[1].array
    first[...] = 0
    second = fast(x)[1].array
    assert not numpy.shares_memory(first, second)
    numpy.testing.assert_allclose(second, numpy.tanh(conv.W.array), rtol=1e-6)


def test_a_new_input_signature_traces_again(assert_matches, eager):
    model = SmallClassifier()
    fast = graph.compile(model)
    small, large = _input((1, 3, 8, 8)), _input((3, 3, 16, 12))
    assert_matches(fast(small), eager(model, small))
    assert_matches(fast(large), eager(model, large))
    assert fast.graph(small) is fast.graph(_input((1, 3, 8, 8), seed=5))
    assert fast.graph(small) is not fast.graph(large)
    pool = graph.compile(lambda x: F.max_pooling_2d(x, 2))
    assert pool.graph(small) is not pool.graph(small.astype(numpy.float64))


def test_reset_retraces_with_the_current_parameters(assert_matches, eager):
    model = SmallClassifier()
    x = _input((2, 3, 8, 8))
    fast = graph.compile(model)
    traced = fast.graph(x)
    # Both are folded into the filters and bias of a convolution when traced.
    model.block1.conv.W.array *= -2
    model.block2.bn.avg_mean += 1
    fast.reset()
    assert_matches(fast(x), eager(model, x))
    assert fast.graph(x) is not traced


def test_compiled_function_runs_in_inference_under_any_configuration(assert_matches, eager,
                                                                     randomize_statistics):
    class Net(framework.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.block = ConvBN(3, 4, 3)

        def forward(self, x):
            return F.dropout(F.relu(self.block(x)), 0.5)

    model = Net()
    randomize_statistics(model)
    statistics = model.block.bn.avg_mean.copy()
    x = _input((4, 3, 6, 6))
    fast = graph.compile(model)
    with framework.using_config('train', True):
        y = fast(x)
    assert_matches(y, eager(model, x))
    numpy.testing.assert_array_equal(model.block.bn.avg_mean, statistics)


def test_a_variable_input(assert_matches, eager):
    conv = L.Convolution2D(3, 4, 3)
    x = _input((2, 3, 5, 5))
    assert_matches(graph.compile(conv)(framework.Variable(x)), eager(conv, x))


def test_a_non_array_input_is_rejected():
    with pytest.raises(TypeError, match='input 0 must be an array or a Variable, got list'):
        graph.compile(F.relu)([1.0, 2.0])


def test_a_compiled_function_inside_a_compiled_function(eager):
    conv = L.Convolution2D(3, 4, 3)
    inner = graph.compile(conv)
    outer = graph.compile(lambda x: F.relu(inner(x)))
    outer(_input((1, 3, 5, 5), seed=1))
    x = _input((1, 3, 5, 5), seed=2)
    numpy.testing.assert_allclose(outer(x).array, eager(lambda x: F.relu(conv(x)), x).array,
                                  rtol=1e-5, atol=1e-6)


def test_constant_subexpressions_are_folded(assert_compiles):
    conv = L.Convolution2D(3, 4, 3)
    scale = numpy.linspace(0.5, 2, 4).astype(numpy.float32).reshape(1, 4, 1, 1)
    x = _input((2, 3, 5, 5))

    def fn(x):
        # W * 2 and b + 1 read parameters only; exp(scale) a constant only.
        return F.convolution_2d(x, conv.W * 2, conv.b + 1) * F.exp(scale)

    g = assert_compiles(fn, x).graph(x)
    assert len(_ops(g, ops.Conv2D)) == 1
    assert _node_labels(g) == []
    scaling, = _ops(g, ops.ChannelScale)
    numpy.testing.assert_allclose(g.values[scaling.inputs[1]].const, numpy.exp(scale))


def test_calls_from_several_threads_get_their_own_results(eager):
    conv = L.Convolution2D(3, 8, 3, pad=1)
    fast = graph.compile(lambda x: F.relu(conv(x)))
    inputs = [_input((2, 3, 16, 16), seed=seed) for seed in range(8)]
    expected = [eager(lambda x: F.relu(conv(x)), x).array for x in inputs]
    results = [None] * len(inputs)

    def work(i):
        for _ in range(5):
            results[i] = fast(inputs[i]).array

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for actual, e in zip(results, expected):
        numpy.testing.assert_allclose(actual, e, rtol=1e-5, atol=1e-6)


def test_calls_of_one_signature_run_at_once_each_on_memory_of_its_own(eager):
    # Each call waits inside the graph's convolution until the other has come in: with one
    # executor at a time the barrier would time out.
    barrier = threading.Barrier(2, timeout=5)
    conv = L.Convolution2D(3, 4, 3, pad=1)
    fast = graph.compile(lambda x: F.relu(conv(x)))
    inputs = [_input((1, 3, 6, 6), seed=seed) for seed in range(2)]
    fast(inputs[0])
    op = next(op for op in fast.graph(inputs[0]).ops if isinstance(op, ops.Conv2D))
    run = op.run

    def waiting_run(*args):
        result = run(*args)
        barrier.wait()
        return result

    op.run = waiting_run
    results = [None, None]

    def work(i):
        results[i] = fast(inputs[i]).array.copy()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for actual, x in zip(results, inputs):
        numpy.testing.assert_allclose(actual, eager(lambda x: F.relu(conv(x)), x).array,
                                      rtol=1e-5, atol=1e-6)
    assert len(fast._signatures) == 1 and len(fast._signatures.popitem()[1].idle) == 2


def test_the_least_recently_used_graphs_beyond_max_graphs_are_dropped(eager):
    conv = L.Convolution2D(3, 4, 3)
    fast = graph.compile(conv, max_graphs=2)
    shapes = [(1, 3, 5, 5), (1, 3, 6, 6), (1, 3, 5, 5), (1, 3, 7, 7)]
    for shape in shapes:
        x = _input(shape)
        numpy.testing.assert_allclose(fast(x).array, eager(conv, x).array, rtol=1e-5,
                                      atol=1e-6)
    # 6x6 was the least recently used when 7x7 came.
    assert [key[0][0] for key in fast._signatures] == [(1, 3, 5, 5), (1, 3, 7, 7)]


@pytest.mark.parametrize('max_graphs', [0, -1, 1.5, True])
def test_max_graphs_must_be_a_positive_int(max_graphs):
    with pytest.raises(ValueError, match=f'max_graphs must be a positive int, but got '
                                         f'{max_graphs!r}'):
        graph.compile(F.relu, max_graphs=max_graphs)


def test_copies_and_pickles_trace_again(eager):
    conv = L.Convolution2D(3, 4, 3)
    fast = graph.compile(conv, max_graphs=3)
    x = _input((1, 3, 5, 5))
    fast(x)
    for other in (copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert other.max_graphs == 3 and not other._signatures
        numpy.testing.assert_allclose(other(x).array, eager(other.fn, x).array, rtol=1e-5,
                                      atol=1e-6)
        assert len(other._signatures) == 1
