"""Shared by the static-graph tests: running a function eagerly in inference, comparing a
compiled function with it, and batch normalizations with statistics worth folding."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.links as L
from framework import backend, graph

# The relative tolerance of each dtype, also applied to the output's scale (sums over many
# products are reordered by the channels-last kernels).
TOLERANCES = {numpy.dtype(numpy.float32): 1e-5, numpy.dtype(numpy.float64): 1e-12}


def _eager(fn, *inputs):
    """What ``fn`` returns for Variables of ``inputs`` in inference (train off, no
    backprop)."""
    with framework.using_config('train', False), framework.no_backprop_mode():
        return fn(*[framework.Variable(x) for x in inputs])


def _flatten(result) -> list:
    if isinstance(result, dict):
        return [result[k] for k in result]
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _assert_matches(actual, expected) -> None:
    """``actual`` (what a compiled function returned) equals ``expected`` (the eager result)
    in structure, shapes, dtypes and values, within the dtype's tolerance."""
    assert type(actual) is type(expected)
    if isinstance(expected, dict):
        assert list(actual) == list(expected)
    actual, expected = _flatten(actual), _flatten(expected)
    assert len(actual) == len(expected)
    for k, (y, e) in enumerate(zip(actual, expected)):
        assert isinstance(y, framework.Variable) and not y.requires_grad
        assert y.creator is None
        assert (y.shape, y.dtype) == (e.shape, e.dtype), f'output {k}'
        assert backend.get_device_from_array(y.array) == backend.get_device_from_array(
            e.array)
        y, e = backend.to_cpu(y.array), backend.to_cpu(e.array)
        rtol = TOLERANCES[e.dtype]
        scale = float(numpy.abs(e[numpy.isfinite(e)]).max(initial=0))
        numpy.testing.assert_allclose(y, e, rtol=rtol, atol=rtol * scale, err_msg=f'output {k}')


def _assert_compiles(fn, *inputs) -> graph.CompiledFunction:
    """Compiles ``fn``, checks that it returns what ``fn`` returns in inference for
    ``inputs``, and returns the compiled function."""
    expected = _eager(fn, *inputs)
    fast = graph.compile(fn)
    _assert_matches(fast(*inputs), expected)
    return fast


def _randomize_statistics(link, seed: int = 0) -> None:
    """Gives every batch normalization under ``link`` random statistics, scale and shift, so
    that folding it is not the identity."""
    rng = numpy.random.RandomState(seed)
    for bn in link.links():
        if isinstance(bn, L.BatchNormalization):
            shape, dtype = bn.avg_mean.shape, bn.avg_mean.dtype
            bn.avg_mean[...] = rng.uniform(-1, 1, shape).astype(dtype)
            bn.avg_var[...] = rng.uniform(0.25, 2, shape).astype(dtype)
            bn.gamma.array[...] = rng.uniform(0.5, 1.5, shape).astype(dtype)
            bn.beta.array[...] = rng.uniform(-0.5, 0.5, shape).astype(dtype)


@pytest.fixture
def eager():
    """``eager(fn, *inputs)``: what ``fn`` returns in inference."""
    return _eager


@pytest.fixture
def assert_compiles():
    """``assert_compiles(fn, *inputs)``: compiles ``fn``, checks the compiled function
    against ``fn`` run in inference on ``inputs`` and returns it."""
    return _assert_compiles


@pytest.fixture
def assert_matches():
    """``assert_matches(actual, expected)``: a compiled result equals an eager one."""
    return _assert_matches


@pytest.fixture
def randomize_statistics():
    """``randomize_statistics(link, seed=0)``: random statistics for its batch
    normalizations."""
    return _randomize_statistics
