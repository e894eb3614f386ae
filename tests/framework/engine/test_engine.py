"""The engine interface under both engines: ordering, waits, operators, deletion, checks."""

import os
import threading
import time

import pytest

from framework import engine as engine_module
from framework.engine import NaiveEngine, RunContext, ThreadedEngine
from framework.testing.emulated_device import EmulatedDevice


def test_writes_run_in_push_order(engine):
    v = engine.new_var()
    out = []
    for i in range(50):
        engine.push(lambda run_ctx, i=i: (time.sleep(0.0005 * (i % 3)), out.append(i)),
                    mutate_vars=(v,))
    engine.wait_for_all()
    assert out == list(range(50))
    assert v.version == 50


def test_reads_wait_for_the_write_before_and_block_the_write_after(engine):
    v = engine.new_var()
    log = []
    engine.push(lambda run_ctx: (time.sleep(0.02), log.append('w1')), mutate_vars=(v,))
    for i in range(3):
        engine.push(lambda run_ctx, i=i: (time.sleep(0.01), log.append(f'r{i}')),
                    const_vars=(v,))
    engine.push(lambda run_ctx: log.append('w2'), mutate_vars=(v,))
    engine.wait_for_all()
    assert log[0] == 'w1' and log[-1] == 'w2'
    assert sorted(log[1:4]) == ['r0', 'r1', 'r2']
    assert v.version == 2


def test_var_read_and_written_counts_once_as_written(engine):
    v = engine.new_var()
    out = []
    engine.push(lambda run_ctx: out.append(1), const_vars=(v, v), mutate_vars=(v, v))
    engine.push(lambda run_ctx: out.append(2), const_vars=(v,), mutate_vars=(v,))
    engine.wait_for_all()
    assert out == [1, 2]
    assert v.version == 2


def test_wait_for_var_waits_for_the_writers_pushed_before(engine):
    v = engine.new_var()
    done = []
    engine.push(lambda run_ctx: (time.sleep(0.05), done.append(True)), mutate_vars=(v,))
    engine.wait_for_var(v)
    assert done == [True]


def test_run_context_gives_the_device(engine):
    seen = []
    engine.push(lambda run_ctx: seen.append(run_ctx))
    engine.push(lambda run_ctx: seen.append(run_ctx), ctx=EmulatedDevice())
    engine.wait_for_all()
    assert all(isinstance(c, RunContext) and c.stream is None for c in seen)
    assert {str(c.device) for c in seen} == {'@numpy', '@emulated'}


def test_async_function_finishes_when_on_complete_is_called_from_another_thread(engine):
    v = engine.new_var()
    out = []

    def fn(run_ctx, on_complete):
        def later():
            time.sleep(0.02)
            out.append('async')
            on_complete()
        threading.Thread(target=later).start()
    engine.push_async(fn, mutate_vars=(v,))
    engine.push(lambda run_ctx: out.append('next'), const_vars=(v,))
    engine.wait_for_var(v)
    assert out[0] == 'async'
    engine.wait_for_all()
    assert out == ['async', 'next']


def test_running_function_may_push_more(engine):
    v = engine.new_var()
    out = []

    def outer(run_ctx):
        engine.push(lambda run_ctx: out.append('inner'), mutate_vars=(v,))
        time.sleep(0.01)
        out.append('outer')
    engine.push(outer, mutate_vars=(v,))
    engine.wait_for_all()
    assert out == ['outer', 'inner']


def test_push_is_thread_safe(engine):
    shared = engine.new_var()
    counts = {'shared': 0}
    own = [engine.new_var() for _ in range(4)]
    totals = [0] * 4

    def pusher(k):
        for _ in range(200):
            def add(run_ctx, k=k):
                totals[k] += 1
                counts['shared'] += 1
            engine.push(add, const_vars=(own[k],), mutate_vars=(shared,))
    threads = [threading.Thread(target=pusher, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    engine.wait_for_all()
    assert counts['shared'] == 800 and totals == [200] * 4


def test_operator_is_pushed_many_times_then_deleted(engine):
    v = engine.new_var()
    out = []
    op = engine.new_operator(lambda run_ctx: out.append(len(out)), (), (v,), name='counter')
    for _ in range(10):
        engine.push_operator(op)
    engine.delete_operator(op)
    with pytest.raises(ValueError, match='push_operator: <Operator counter> was deleted'):
        engine.push_operator(op)
    engine.wait_for_all()
    assert out == list(range(10))
    assert op.fn is None
    assert v.version == 11


def test_async_operator(engine):
    v = engine.new_var()
    out = []

    def fn(run_ctx, on_complete):
        out.append(1)
        on_complete()
    op = engine.new_operator(fn, (), (v,), is_async=True)
    engine.push_operator(op)
    engine.push_operator(op)
    engine.wait_for_var(v)
    assert out == [1, 1]


def test_var_version_counts_writes_not_reads(engine):
    v = engine.new_var()
    for _ in range(10):
        engine.push(lambda run_ctx: None, const_vars=(v,))
    engine.wait_for_all()
    assert v.version == 0
    for _ in range(10):
        engine.push(lambda run_ctx: None, mutate_vars=(v,))
    engine.wait_for_all()
    assert v.version == 10


def test_delete_var_runs_after_the_functions_pending_on_it(engine):
    v = engine.new_var()
    out = []
    engine.push(lambda run_ctx: (time.sleep(0.03), out.append('w')), mutate_vars=(v,))
    engine.push(lambda run_ctx: (time.sleep(0.03), out.append('r')), const_vars=(v,))
    engine.delete_var(v)
    with pytest.raises(ValueError, match=r'push: <Var \d+ of \w+> was deleted'):
        engine.push(lambda run_ctx: None, const_vars=(v,))
    with pytest.raises(ValueError, match='wait_for_var: .* was deleted'):
        engine.wait_for_var(v)
    engine.wait_for_all()
    assert v.deleted and out == ['w', 'r']


def test_delete_var_waits_for_a_blocked_function(threaded):
    v = threaded.new_var()
    release = threading.Event()
    threaded.push(lambda run_ctx: release.wait(5), const_vars=(v,))
    threaded.delete_var(v)
    time.sleep(0.02)
    assert not v.deleted
    release.set()
    threaded.wait_for_all()
    assert v.deleted


def test_shutdown_waits_then_refuses_pushes(engine):
    out = []
    engine.push(lambda run_ctx: (time.sleep(0.02), out.append(1)))
    engine.shutdown()
    assert out == [1]
    with pytest.raises(RuntimeError, match='was shut down'):
        engine.push(lambda run_ctx: None)
    engine.wait_for_all()
    engine.shutdown()


def test_argument_checks(engine):
    v = engine.new_var()
    with pytest.raises(TypeError, match='push: fn must be callable, but got int'):
        engine.push(3)
    with pytest.raises(TypeError, match='push: mutate_vars must be an iterable of Vars, but '
                                        'got a single Var'):
        engine.push(lambda run_ctx: None, mutate_vars=v)
    with pytest.raises(TypeError, match='push_async: const_vars must hold Vars made by '
                                        'new_var, but got str'):
        engine.push_async(lambda run_ctx, done: done(), const_vars=('a',))
    with pytest.raises(ValueError, match='belongs to another engine'):
        engine.push(lambda run_ctx: None, mutate_vars=(NaiveEngine().new_var(),))
    with pytest.raises(TypeError, match='push: priority must be an int, but got float'):
        engine.push(lambda run_ctx: None, priority=1.5)
    with pytest.raises(ValueError, match="push: ctx must be a Device, a device spec or None, "
                                         "but got 'tpu'"):
        engine.push(lambda run_ctx: None, ctx='tpu')
    with pytest.raises(TypeError, match='push_operator: op must be an Operator'):
        engine.push_operator(lambda run_ctx: None)
    assert v.version == 0


@pytest.mark.parametrize('kind, expected', [('naive', NaiveEngine), ('threaded', ThreadedEngine),
                                            ('', ThreadedEngine), (' Naive ', NaiveEngine)])
def test_get_engine_reads_the_environment(monkeypatch, kind, expected):
    monkeypatch.setattr(engine_module, '_engine', None)
    monkeypatch.setenv('FRAMEWORK_ENGINE', kind)
    eng = engine_module.get_engine()
    assert type(eng) is expected
    assert engine_module.get_engine() is eng
    eng.shutdown()


def test_get_engine_rejects_unknown_kinds(monkeypatch):
    monkeypatch.setattr(engine_module, '_engine', None)
    monkeypatch.setenv('FRAMEWORK_ENGINE', 'gpu')
    with pytest.raises(ValueError, match="FRAMEWORK_ENGINE must be 'naive' or 'threaded', but "
                                         "got 'gpu'"):
        engine_module.get_engine()


def test_default_engine_is_threaded_with_a_worker_per_core():
    eng = ThreadedEngine()
    assert eng.num_cpu_workers == len(os.sched_getaffinity(0))
    eng.shutdown()
    with pytest.raises(ValueError, match='num_cpu_workers must be a positive int or None, but '
                                         'got 0'):
        ThreadedEngine(num_cpu_workers=0)
