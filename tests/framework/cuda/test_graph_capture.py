"""Static graphs replayed as CUDA graphs (``compile(fn, cuda_graph=True)``): the same outputs as
eager inference, new arrays at each call, each call's own inputs; elsewhere than on a GPU the
option changes nothing."""

import pickle

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend, graph
from framework.cuda import CudaGraphExecutor
from framework.graph.executor import Executor
from framework.testing import attr, devices


class Net(framework.Chain):
    """conv-bn-relu, a residual block, max pooling, global mean, linear, softmax; and the
    features as a second output."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, pad=1, nobias=True)
            self.bn1 = L.BatchNormalization(8)
            self.conv2 = L.Convolution2D(8, 8, 3, pad=1)
            self.fc = L.Linear(8, 5)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pooling_2d(F.relu(self.conv2(h) + h), 2)
        features = F.mean(h, axis=(2, 3))
        return F.softmax(self.fc(features)), features


def _net(device):
    numpy.random.seed(0)
    net = Net()
    rng = numpy.random.RandomState(1)
    net.bn1.avg_mean[...] = rng.uniform(-1, 1, 8)
    net.bn1.avg_var[...] = rng.uniform(0.5, 2, 8)
    net.to_device(device)
    return net


def _eager(net, x):
    with framework.using_config('train', False), framework.no_backprop_mode():
        return [backend.to_cpu(y.array) for y in net(x)]


def _inputs(device, n=3):
    rng = numpy.random.RandomState(2)
    return [device.send(rng.uniform(-1, 1, (2, 3, 12, 12)).astype(numpy.float32))
            for _ in range(n)]


@attr.gpu
def test_calls_replay_one_captured_graph_with_their_own_inputs():
    device = backend.GpuDevice(0)
    net = _net(device)
    fast = graph.compile(net, cuda_graph=True)
    inputs = _inputs(device)
    results = [fast(x) for x in inputs]
    executor = next(iter(fast._signatures.values())).first
    assert isinstance(executor, CudaGraphExecutor) and executor._captured is not None
    for x, result in zip(inputs, results):
        for y, e in zip(result, _eager(net, x), strict=True):
            assert isinstance(y.array, device.xp.ndarray)
            numpy.testing.assert_allclose(backend.to_cpu(y.array), e, rtol=1e-5, atol=1e-6)
    # Each call's outputs are arrays of their own, not the captured ones.
    assert not device.xp.shares_memory(results[0][0].array, results[1][0].array)


@attr.gpu
def test_concurrent_calls_capture_graphs_of_their_own():
    device = backend.GpuDevice(0)
    fast = graph.compile(_net(device), cuda_graph=True)
    x = _inputs(device, 1)[0]
    fast(x)
    entry = next(iter(fast._signatures.values()))
    other = entry.first.copy()
    assert isinstance(other, CudaGraphExecutor) and other.executor is not entry.first.executor
    numpy.testing.assert_allclose(backend.to_cpu(other(x)[0]),
                                  backend.to_cpu(entry.first(x)[0]), rtol=1e-6)


@pytest.mark.parametrize('device', devices()[:2], ids=str)
def test_elsewhere_than_on_a_gpu_the_option_changes_nothing(device):
    net = _net(device)
    fast = graph.compile(net, cuda_graph=True)
    x = _inputs(device, 1)[0]
    for y, e in zip(fast(x), _eager(net, x), strict=True):
        numpy.testing.assert_allclose(backend.to_cpu(y.array), e, rtol=1e-5, atol=1e-6)
    assert type(next(iter(fast._signatures.values())).first) is Executor


def test_the_option_is_a_bool_and_survives_a_pickle():
    with pytest.raises(TypeError, match='cuda_graph must be a bool, but got 1'):
        graph.compile(Net(), cuda_graph=1)
    assert pickle.loads(pickle.dumps(graph.compile(Net(), cuda_graph=True))).cuda_graph
