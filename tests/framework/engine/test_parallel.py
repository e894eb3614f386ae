"""parallel_map and parallel_slices: results in order, calls side by side on the CPU workers,
the caller's configuration carried, errors in item order, the sequential fallbacks, and BLAS
held at one thread only while a map runs."""

import threading

import numpy
import pytest
import threadpoolctl

from framework.config import config, thread_settings, using_config
from framework.engine import NaiveEngine, ThreadedEngine, parallel_map, parallel_slices
from framework.testing.emulated_device import EmulatedDevice


def blas_threads():
    return max(info['num_threads'] for info in threadpoolctl.threadpool_info()
               if info['user_api'] == 'blas')


def test_results_are_in_the_order_of_the_items(threaded):
    assert parallel_map(lambda i: i * i, range(20), engine=threaded) == [
        i * i for i in range(20)]


def test_calls_run_side_by_side_on_the_workers(threaded):
    barrier = threading.Barrier(3, timeout=5)
    caller = threading.get_ident()
    idents = parallel_map(lambda _: (barrier.wait(), threading.get_ident())[1], range(3),
                          engine=threaded)
    assert len(set(idents)) == 3 and caller not in idents


def test_the_calling_threads_configuration_is_carried(threaded):
    with using_config('train', False), using_config('enable_backprop', False):
        seen = parallel_map(lambda _: (config.train, config.enable_backprop), range(4),
                            engine=threaded)
    assert seen == [(False, False)] * 4
    assert parallel_map(lambda _: config.train, range(4), engine=threaded) == [True] * 4


def test_the_workers_configuration_is_restored_after_a_call(threaded):
    with using_config('train', False):
        parallel_map(lambda _: None, range(8), engine=threaded)
    seen = []
    threaded.push(lambda run_ctx: seen.append(config.train))
    threaded.wait_for_all()
    assert seen == [True]


def test_thread_settings_are_what_this_thread_set():
    with using_config('train', False):
        assert thread_settings()['train'] is False
        other = []
        thread = threading.Thread(target=lambda: other.append(thread_settings()))
        thread.start()
        thread.join()
    assert 'train' not in other[0]


def test_the_first_failed_item_is_raised_after_every_call_finished(threaded):
    finished = []

    def fn(i):
        if i in (3, 1):
            raise ValueError(f'item {i} is bad')
        finished.append(i)
        return i

    with pytest.raises(ValueError, match='item 1 is bad'):
        parallel_map(fn, range(6), engine=threaded)
    assert sorted(finished) == [0, 2, 4, 5]
    threaded.wait_for_all()  # nothing left unreported


@pytest.mark.parametrize('items', [[], [7]])
def test_fewer_than_two_items_run_in_the_calling_thread(threaded, items):
    caller = threading.get_ident()
    assert parallel_map(lambda i: (i, threading.get_ident()), items, engine=threaded) == [
        (i, caller) for i in items]


@pytest.mark.parametrize('make', [NaiveEngine, lambda: ThreadedEngine(num_cpu_workers=1)])
def test_an_engine_of_one_worker_runs_the_calls_in_the_calling_thread(make):
    engine = make()
    try:
        caller = threading.get_ident()
        assert parallel_map(lambda i: threading.get_ident(), range(3), engine=engine) == [
            caller] * 3
    finally:
        engine.shutdown()


@pytest.mark.parametrize('device', [EmulatedDevice(), '@emulated'])
def test_a_device_other_than_the_cpu_runs_the_calls_in_the_calling_thread(threaded, device):
    caller = threading.get_ident()
    assert parallel_map(lambda i: threading.get_ident(), range(3), device,
                        engine=threaded) == [caller] * 3


def test_a_map_inside_an_engine_function_runs_there(threaded):
    seen = []

    def outer(run_ctx):
        here = threading.get_ident()
        inner = parallel_map(lambda i: threading.get_ident(), range(3), engine=threaded)
        seen.append(inner == [here] * 3)

    threaded.push(outer)
    threaded.wait_for_all()
    assert seen == [True]


def test_blas_runs_one_thread_during_a_map_and_as_before_after(threaded):
    before = blas_threads()
    during = parallel_map(lambda _: blas_threads(), range(4), engine=threaded)
    assert during == [1] * 4
    assert blas_threads() == before


def test_concurrent_maps_lift_the_blas_limit_only_when_the_last_ends(threaded):
    # The long map runs in the main thread: some OpenBLAS builds ignore a thread count set
    # from another thread once the main thread has set one.
    before = blas_threads()
    second_done = threading.Event()

    def second_map():
        parallel_map(lambda _: None, range(2), engine=threaded)
        second_done.set()

    def long_call(i):
        if i == 0:
            thread = threading.Thread(target=second_map)
            thread.start()
            thread.join(5)
            return second_done.is_set(), blas_threads()
        return None

    (second_finished, during), _ = parallel_map(long_call, range(2), engine=threaded)
    assert second_finished and during == 1  # the first map still ran
    assert blas_threads() == before


def test_results_equal_the_sequential_ones_on_arrays(threaded):
    rng = numpy.random.default_rng(0)
    matrices = [rng.standard_normal((64, 64)) for _ in range(6)]
    expected = [m @ m.T for m in matrices]
    for actual, wanted in zip(parallel_map(lambda m: m @ m.T, matrices, engine=threaded),
                              expected):
        numpy.testing.assert_allclose(actual, wanted, rtol=1e-12)


def test_fn_must_be_callable(threaded):
    with pytest.raises(TypeError, match='fn must be callable, but got int'):
        parallel_map(3, range(2), engine=threaded)


@pytest.mark.parametrize('length, max_size, workers, sizes', [
    (0, 4, 2, []),
    (1, 4, 2, [1]),
    (3, 4, 4, [1, 1, 1]),
    (13, 128, 2, [6, 7]),
    (199, 128, 2, [99, 100]),
    (10, 3, 2, [2, 3, 2, 3]),
    (10, None, 3, [3, 3, 4]),
    (10, None, 1, [10]),
])
def test_slices_cover_the_range_in_equal_shares_per_worker(length, max_size, workers, sizes):
    engine = ThreadedEngine(num_cpu_workers=workers)
    try:
        slices = parallel_slices(length, max_size, engine=engine)
    finally:
        engine.shutdown()
    assert [s.stop - s.start for s in slices] == sizes
    assert [i for s in slices for i in range(length)[s]] == list(range(length))


def test_an_engine_without_workers_gets_slices_of_at_most_max_size():
    engine = NaiveEngine()
    assert [s.stop - s.start for s in parallel_slices(10, 4, engine=engine)] == [3, 3, 4]


@pytest.mark.parametrize('max_size', [0, -1, 2.5, True])
def test_max_size_must_be_a_positive_int(max_size):
    with pytest.raises(ValueError, match=f'max_size must be a positive int, but got '
                                         f'{max_size!r}'):
        parallel_slices(4, max_size)
