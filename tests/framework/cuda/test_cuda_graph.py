"""A static graph replayed as a CUDA graph (framework.cuda.cuda_graph): captured at a
signature's second call, equal to the graph run op by op for every later input, off when the
configuration says so, and a run that cannot be captured warns once and runs op by op."""

import warnings

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph
from framework.function_node import FunctionNode
from framework.testing import attr


class Net(framework.Chain):
    """conv-BN-ReLU, max pooling, a resize, a residual conv, global mean, linear, softmax: the
    kinds of op the zoo's static graphs run (products by cuDNN and by cuBLAS)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, pad=1)
            self.bn1 = L.BatchNormalization(8)
            self.conv2 = L.Convolution2D(8, 8, 3, pad=1)
            self.fc = L.Linear(8, 5)

    def forward(self, x):
        h = F.resize_images(F.max_pooling_2d(F.relu(self.bn1(self.conv1(x))), 2), (6, 6))
        h = F.relu(self.conv2(h) + h)
        return F.softmax(self.fc(F.mean(h, axis=(2, 3))))


class HostScaled(FunctionNode):
    """Multiplies by the input's largest element, read on the host: a synchronization that
    CUDA refuses to capture."""

    def forward(self, inputs):
        x, = inputs
        return x * float(x.max()),


def _inputs(n, shape=(2, 3, 8, 8)):
    return [numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float32)
            for seed in range(n)]


def _eager(fn, x):
    with framework.using_config('train', False), framework.no_backprop_mode():
        return fn(framework.Variable(x)).array


def _executor(fast, x):
    return fast._signatures[fast._signature([x])].first


def test_on_the_cpu_nothing_is_captured():
    net = Net()
    fast = graph.compile(net)
    x = _inputs(1)[0]
    for _ in range(3):
        fast(x)
    executor = _executor(fast, x)
    assert not executor._capturable and executor._captured is None


@attr.gpu
def test_the_second_call_captures_and_every_call_equals_the_eager_run():
    import cupy
    net = Net()
    net.to_device('@cupy:0')
    fast = graph.compile(net)
    outputs = []
    for i, x in enumerate(_inputs(4)):
        x = cupy.asarray(x)
        y = fast(x).array
        outputs.append(y)
        assert (_executor(fast, x)._captured is not None) == (i >= 1)
        numpy.testing.assert_allclose(cupy.asnumpy(y), cupy.asnumpy(_eager(net, x)),
                                      rtol=1e-5, atol=1e-6)
    assert not any(numpy.shares_memory(a, b) for a in outputs for b in outputs if a is not b)


@attr.gpu
def test_the_outputs_keep_their_values_when_the_graph_runs_again():
    import cupy
    net = Net()
    net.to_device('@cupy:0')
    fast = graph.compile(net)
    first, second, third = [cupy.asarray(x) for x in _inputs(3)]
    fast(first)
    kept = fast(second).array
    expected = cupy.asnumpy(kept)
    fast(third)
    numpy.testing.assert_array_equal(cupy.asnumpy(kept), expected)


@attr.gpu
def test_configured_off_it_runs_op_by_op():
    import cupy
    net = Net()
    net.to_device('@cupy:0')
    fast = graph.compile(net)
    with framework.using_config('use_cuda_graph', False):
        for x in _inputs(3):
            x = cupy.asarray(x)
            numpy.testing.assert_allclose(cupy.asnumpy(fast(x).array),
                                          cupy.asnumpy(_eager(net, x)), rtol=1e-5, atol=1e-6)
        assert _executor(fast, x)._captured is None


@attr.gpu
def test_a_run_that_synchronizes_with_the_host_warns_once_and_runs_op_by_op():
    import cupy
    conv = L.Convolution2D(3, 4, 3, pad=1)
    conv.to_device('@cupy:0')

    def fn(x):
        return F.relu(HostScaled().apply((conv(x),))[0])

    fast = graph.compile(fn)
    xs = [cupy.asarray(x) for x in _inputs(4)]
    fast(xs[0])
    with pytest.warns(RuntimeWarning, match='could not be captured as a CUDA graph'):
        y = fast(xs[1]).array
    numpy.testing.assert_allclose(cupy.asnumpy(y), cupy.asnumpy(_eager(fn, xs[1])), rtol=1e-5,
                                  atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for x in xs[2:]:
            numpy.testing.assert_allclose(cupy.asnumpy(fast(x).array),
                                          cupy.asnumpy(_eager(fn, x)), rtol=1e-5, atol=1e-6)
    assert _executor(fast, xs[0])._captured is None
