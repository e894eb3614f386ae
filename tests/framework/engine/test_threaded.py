"""What only the threaded engine shows: concurrency, non-blocking pushes, priorities."""

import threading
import time

import pytest

from framework.engine import ThreadedEngine


def test_reads_between_two_writes_run_concurrently(threaded):
    v = threaded.new_var()
    barrier = threading.Barrier(3, timeout=5)
    threaded.push(lambda run_ctx: None, mutate_vars=(v,))
    for _ in range(3):
        threaded.push(lambda run_ctx: barrier.wait(), const_vars=(v,))
    threaded.push(lambda run_ctx: None, mutate_vars=(v,))
    threaded.wait_for_all()


def test_independent_writes_run_concurrently(threaded):
    barrier = threading.Barrier(2, timeout=5)
    for _ in range(2):
        threaded.push(lambda run_ctx: barrier.wait(), mutate_vars=(threaded.new_var(),))
    threaded.wait_for_all()


def test_push_returns_at_once(threaded):
    release = threading.Event()
    start = time.perf_counter()
    threaded.push(lambda run_ctx: release.wait(5))
    assert time.perf_counter() - start < 1
    release.set()
    threaded.wait_for_all()


def test_wait_for_var_does_not_wait_for_readers(threaded):
    v = threaded.new_var()
    release = threading.Event()
    threaded.push(lambda run_ctx: release.wait(5), const_vars=(v,))
    threaded.wait_for_var(v)
    assert not release.is_set()
    release.set()
    threaded.wait_for_all()


def test_write_waits_for_the_reads_pushed_before(threaded):
    v = threaded.new_var()
    log = []
    threaded.push(lambda run_ctx: (time.sleep(0.03), log.append('read')), const_vars=(v,))
    threaded.push(lambda run_ctx: log.append('write'), mutate_vars=(v,))
    threaded.wait_for_var(v)
    assert log == ['read', 'write']


def test_priority_orders_the_functions_ready_at_the_same_time():
    eng = ThreadedEngine(num_cpu_workers=1)
    release = threading.Event()
    order = []
    eng.push(lambda run_ctx: release.wait(5))
    time.sleep(0.01)
    for priority in (0, 3, 1, 2, -1, 3):
        eng.push(lambda run_ctx, p=priority: order.append(p), priority=priority)
    release.set()
    eng.shutdown()
    assert order == [3, 3, 2, 1, 0, -1]


def test_wait_for_all_waits_for_functions_pushed_by_functions(threaded):
    out = []

    def spawn(run_ctx, depth=0):
        time.sleep(0.005)
        if depth < 3:
            threaded.push(lambda run_ctx: spawn(run_ctx, depth + 1))
        out.append(depth)
    threaded.push(spawn)
    threaded.wait_for_all()
    assert out == [0, 1, 2, 3]


@pytest.mark.parametrize('n', [1, 3])
def test_blocked_workers_do_not_block_waits(n):
    eng = ThreadedEngine(num_cpu_workers=n)
    release = threading.Event()
    v = eng.new_var()
    for _ in range(n):
        eng.push(lambda run_ctx: release.wait(5), mutate_vars=(eng.new_var(),))
    eng.push(lambda run_ctx: None, const_vars=(v,))
    eng.wait_for_var(v)
    release.set()
    eng.shutdown()
