"""The executor: runs an optimized graph on arrays, checking them against the trace."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import graph


def _input(shape=(2, 3, 6, 6), dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.fixture
def conv():
    return L.Convolution2D(3, 4, 3, pad=1)


@pytest.fixture
def executor(conv):
    with framework.using_config('train', False):
        g, _ = graph.trace(lambda x, y: (F.relu(conv(x)), conv(y)), _input(), _input())
    graph.optimize(g)
    return graph.Executor(g)


def test_returns_the_outputs_as_arrays(executor, conv, eager):
    x, y = _input(seed=1), _input(seed=2)
    relu, plain = executor(x, y)
    numpy.testing.assert_allclose(relu, eager(lambda x: F.relu(conv(x)), x).array, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(plain, eager(conv, y).array, rtol=1e-5, atol=1e-6)


def test_allocates_its_blocks_once(executor):
    blocks = executor.plan.block_sizes
    assert blocks and all(size > 0 for size in blocks)
    first = executor(_input(seed=1), _input(seed=2))
    second = executor(_input(seed=3), _input(seed=4))
    for a, b in zip(first, second):
        assert not numpy.shares_memory(a, b)


@pytest.mark.parametrize('k, x, message', [
    (0, _input((1, 3, 6, 6)), r'input 0 must be of shape \(2, 3, 6, 6\) and dtype float32 '
                              r'\(as traced\), got \(1, 3, 6, 6\) and float32'),
    (1, _input(dtype=numpy.float64), r'input 1 must be of shape \(2, 3, 6, 6\) and dtype '
                                     r'float32 \(as traced\), got \(2, 3, 6, 6\) and float64'),
], ids=['shape', 'dtype'])
def test_rejects_an_input_unlike_the_traced_one(executor, k, x, message):
    inputs = [_input(), _input()]
    inputs[k] = x
    with pytest.raises(ValueError, match=message):
        executor(*inputs)


def test_rejects_a_wrong_number_of_inputs(executor):
    with pytest.raises(TypeError, match='the graph takes 2 inputs, got 1'):
        executor(_input())
