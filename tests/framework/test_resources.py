"""Resources per device: random streams (main and per worker) and pooled workspace."""

import numpy
import pytest

import framework
import framework.functions as F
from framework import backend, engine, memory, resources
from framework.engine import NaiveEngine, ThreadedEngine
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice
from framework.testing.emulated_device import xp as emulated_xp


@pytest.fixture(autouse=True)
def _reseed():
    yield
    framework.random.seed(None)


def test_main_stream_is_the_generator_of_the_array_module():
    assert resources.random_state() is framework.random.get_random_state(numpy)
    assert resources.random_state('@numpy') is resources.random_state()
    assert resources.random_state(EmulatedDevice()) is \
        framework.random.get_random_state(emulated_xp)


def test_seeded_main_stream_draws_what_numpy_draws():
    framework.random.seed(3)
    numpy.testing.assert_array_equal(resources.random_state().random_sample(5),
                                     numpy.random.RandomState(3).random_sample(5))


def test_dropout_draws_the_same_mask_as_before():
    x = numpy.ones((4, 6), numpy.float32)
    framework.random.seed(0)
    y, mask = F.dropout(x, 0.25, return_mask=True)
    keep = numpy.random.RandomState(0).random_sample(x.shape) >= 0.25
    numpy.testing.assert_array_equal(mask, keep / numpy.float32(0.75))


def test_worker_streams_are_independent_and_reproducible():
    framework.random.seed(1)
    main = resources.random_state().random_sample(4)
    workers = [resources.random_state(worker=i).random_sample(4) for i in range(3)]
    framework.random.seed(1)
    assert resources.random_state(worker=2) is not resources.random_state()
    numpy.testing.assert_array_equal(resources.random_state(worker=2).random_sample(4),
                                     workers[2])
    rows = numpy.stack([main] + workers)
    assert len({tuple(r) for r in rows}) == 4
    emulated = resources.random_state(EmulatedDevice(), worker=2).random_sample(4)
    assert type(emulated) is EmulatedArray


def test_worker_must_be_a_non_negative_int():
    with pytest.raises(ValueError, match='random_state: worker must be a non-negative int or '
                                         'None, but got -1'):
        resources.random_state(worker=-1)
    with pytest.raises(ValueError, match=r'get_random_state: stream must be a tuple of '
                                         r'non-negative ints, but got \(0, -1\)'):
        framework.random.get_random_state(numpy, (0, -1))


@pytest.mark.parametrize('make_engine', [NaiveEngine, lambda: ThreadedEngine(num_cpu_workers=4)])
def test_pushed_draws_are_reproducible_whichever_engine_runs(make_engine):
    framework.random.seed(7)
    state = numpy.random.RandomState(7)
    expected = [state.normal(size=3) for _ in range(30)]
    eng = make_engine()
    rng_var = engine.random_var(engine=eng)
    assert engine.random_var(engine=eng) is rng_var
    outputs = [None] * 30
    out_vars = [eng.new_var() for _ in range(30)]
    for i in range(30):
        def draw(run_ctx, i=i):
            outputs[i] = resources.random_state(run_ctx.device).normal(size=3)
        eng.push(draw, mutate_vars=(rng_var, out_vars[i]))
    eng.shutdown()
    numpy.testing.assert_array_equal(numpy.stack(outputs), numpy.stack(expected))


def test_request_workspace_lends_pooled_memory(monkeypatch):
    # A pool of its own: threads left by other tests may use the process's pool meanwhile.
    pool = memory.HostMemoryPool()
    monkeypatch.setitem(memory._pools, backend.CpuDevice(), pool)
    before = pool.used_bytes()
    workspace = resources.request_workspace(None, 10_000)
    assert workspace.dtype == numpy.uint8 and workspace.shape == (10_000,)
    assert pool.used_bytes() == before + memory.size_class(10_000)
    columns = workspace.view(numpy.float32).reshape(50, 50)
    del workspace
    assert pool.used_bytes() == before + memory.size_class(10_000)
    del columns
    assert pool.used_bytes() == before
    assert type(resources.request_workspace(EmulatedDevice(), 8)) is EmulatedArray
    with pytest.raises(ValueError, match='request_workspace: nbytes must be a non-negative '
                                         'int, but got -3'):
        resources.request_workspace(None, -3)
