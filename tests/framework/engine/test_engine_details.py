"""Engine details: every entry point's messages matched whole, default priorities, internal
operations on poisoned variables, names of errors, the process engine and its random
variables, the exit hook, worker counts, and parallel_map's and parallel_slices' fallbacks."""

import atexit
import functools
import os
import re
import threading

import pytest

import framework.engine as engine_module
from framework import backend
from framework.engine import (
    NaiveEngine,
    Operator,
    RunContext,
    ThreadedEngine,
    parallel_map,
    parallel_slices,
    random_var,
)
from framework.engine import threaded as threaded_module
from framework.testing.emulated_device import EmulatedDevice


def _exactly(message):
    return '^' + re.escape(message) + '$'


def _noop(run_ctx):
    pass


def test_messages_name_each_entry_point(engine):
    v = engine.new_var()
    with pytest.raises(TypeError, match=_exactly('new_operator: fn must be callable, but got int')):
        engine.new_operator(3)
    with pytest.raises(TypeError, match=_exactly(
            'delete_operator: op must be an Operator made by new_operator, but got int')):
        engine.delete_operator(3)
    with pytest.raises(TypeError, match=_exactly(
            'push_operator: op must be an Operator made by new_operator, but got int')):
        engine.push_operator(3)
    op = engine.new_operator(_noop, mutate_vars=(v,))
    with pytest.raises(ValueError, match=_exactly(
            "push_operator: ctx must be a Device, a device spec or None, but got 'tpu'")):
        engine.push_operator(op, ctx='tpu')
    with pytest.raises(TypeError, match=_exactly(
            'push_operator: priority must be an int, but got str')):
        engine.push_operator(op, priority='1')
    with pytest.raises(ValueError, match=_exactly(
            "push_async: ctx must be a Device, a device spec or None, but got 'tpu'")):
        engine.push_async(lambda run_ctx, done: done(), ctx='tpu')
    with pytest.raises(TypeError, match=_exactly(
            'push_async: priority must be an int, but got float')):
        engine.push_async(lambda run_ctx, done: done(), priority=1.0)
    with pytest.raises(TypeError, match=_exactly(
            'push_operator: the variables of op must hold Vars made by new_var, but got int')):
        engine.push_operator(Operator(_noop, (1,), (), False, 'hand-made'))
    with pytest.raises(TypeError, match=_exactly(
            'wait_for_var: var must hold Vars made by new_var, but got int')):
        engine.wait_for_var(5)
    with pytest.raises(TypeError, match=_exactly(
            'delete_var: var must hold Vars made by new_var, but got int')):
        engine.delete_var(5)
    engine.delete_operator(op)
    with pytest.raises(ValueError, match=_exactly(f'delete_operator: {op!r} was deleted already')):
        engine.delete_operator(op)
    engine.delete_var(v)
    with pytest.raises(ValueError, match=_exactly(f'delete_var: {v!r} was deleted')):
        engine.delete_var(v)
    engine.wait_for_all()
    assert repr(v) == f'<Var 0 of {type(engine).__name__}>'


def test_waiting_inside_a_function_names_the_wait(engine):
    v = engine.new_var()
    seen = []

    def fn(run_ctx):
        try:
            engine.wait_for_var(v)
        except RuntimeError as error:
            seen.append(str(error))

    engine.push(fn)
    engine.wait_for_all()
    assert seen == ['wait_for_var cannot be called inside a function run by the engine: it '
                    'would wait for itself']


@pytest.mark.parametrize('how', ['push', 'push_async', 'push_operator'])
def test_default_priority_is_zero(how):
    # Work ready at the same time runs by priority, then in push order: a default priority
    # of 0 runs after an earlier push of priority 0.
    eng = ThreadedEngine(num_cpu_workers=1)
    try:
        gate, order = threading.Event(), []
        eng.push(lambda run_ctx: gate.wait(5))
        eng.push(lambda run_ctx: order.append('first'), priority=0)
        if how == 'push':
            eng.push(lambda run_ctx: order.append('second'))
        elif how == 'push_async':
            eng.push_async(lambda run_ctx, done: (order.append('second'), done()))
        else:
            eng.push_operator(eng.new_operator(lambda run_ctx: order.append('second')))
        gate.set()
        eng.wait_for_all()
        assert order == ['first', 'second']
    finally:
        eng.shutdown()


def test_deletions_run_on_poisoned_variables(engine):
    v = engine.new_var()
    op = engine.new_operator(_noop, mutate_vars=(v,))

    def fail(run_ctx):
        raise ValueError('boom')

    engine.push(fail, mutate_vars=(v,))
    engine.delete_operator(op)
    engine.delete_var(v)
    with pytest.raises(ValueError, match='boom'):
        engine.wait_for_all()
    assert v.deleted and op.fn is None


def test_error_with_several_arguments_keeps_them():
    eng = NaiveEngine()

    def fail(run_ctx):
        raise ValueError('boom', 1, 2)

    eng.push(fail, name='f')
    with pytest.raises(ValueError) as info:
        eng.wait_for_all()
    assert info.value.args == ('f: boom', 1, 2)


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError('no str')


def test_error_that_cannot_be_printed_gets_a_note():
    eng = NaiveEngine()

    def fail(run_ctx):
        raise _Unprintable('boom')

    eng.push(fail, name='f')
    with pytest.raises(_Unprintable) as info:
        eng.wait_for_all()
    assert info.value.args == ('f: boom',)
    assert info.value.__notes__ == ["raised in the engine function 'f'"]


def test_async_function_gets_the_run_context_and_checks_on_complete(engine):
    seen, errors = [], []

    def fn(run_ctx, on_complete):
        seen.append(run_ctx)
        try:
            on_complete('not an error')
        except TypeError as error:
            errors.append(str(error))
        on_complete()

    engine.push_async(fn)
    engine.wait_for_all()
    assert seen == [RunContext(backend.CpuDevice())]
    assert errors == ['on_complete: error must be an exception or None, but got str']


def test_on_complete_after_raising_is_an_error(engine):
    kept = []

    def fn(run_ctx, on_complete):
        kept.append(on_complete)
        raise ValueError('boom')

    engine.push_async(fn, name='f')
    with pytest.raises(ValueError, match='f: boom'):
        engine.wait_for_all()
    with pytest.raises(RuntimeError, match=_exactly("on_complete of 'f' called twice")):
        kept[0]()


def test_async_function_raising_a_base_exception_lets_it_through():
    eng = NaiveEngine()

    def fn(run_ctx, on_complete):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        eng.push_async(fn, name='f')
    with pytest.raises(KeyboardInterrupt):
        eng.wait_for_all()


def test_naive_wait_from_another_thread_while_a_function_runs():
    eng = NaiveEngine()
    gate, started, waited = threading.Event(), threading.Event(), threading.Event()
    errors = []

    def pusher():
        try:
            eng.push(lambda run_ctx: (started.set(), gate.wait(5)))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    def waiter():
        started.wait(5)
        eng.wait_for_all()
        waited.set()

    threads = [threading.Thread(target=pusher), threading.Thread(target=waiter, daemon=True)]
    for thread in threads:
        thread.start()
    assert started.wait(5)
    assert not waited.wait(0.2)
    gate.set()
    threads[0].join(5)
    assert waited.wait(5) and errors == []


def test_a_granted_write_blocks_later_reads(threaded):
    v = threaded.new_var()
    read_gate, write_gate = threading.Event(), threading.Event()
    writing, late_read = threading.Event(), threading.Event()
    threaded.push(lambda run_ctx: read_gate.wait(5), const_vars=(v,))
    threaded.push(lambda run_ctx: (writing.set(), write_gate.wait(5)), mutate_vars=(v,))
    read_gate.set()
    assert writing.wait(5)
    # The write was granted by the read's completion; a read pushed now waits for it.
    threaded.push(lambda run_ctx: late_read.set(), const_vars=(v,))
    assert not late_read.wait(0.2)
    # A push waiting for one of two variables waits, whichever order they are given in.
    free = threaded.new_var()
    both_read, both_written = threading.Event(), threading.Event()
    threaded.push(lambda run_ctx: both_read.set(), const_vars=(v, free))
    threaded.push(lambda run_ctx: both_written.set(), mutate_vars=(v, threaded.new_var()))
    assert not both_read.wait(0.2) and not both_written.is_set()
    write_gate.set()
    threaded.wait_for_all()
    assert late_read.is_set() and both_read.is_set() and both_written.is_set()


def test_shutdown_joins_the_workers():
    eng = ThreadedEngine(num_cpu_workers=2)
    eng.push(_noop)
    eng.wait_for_all()
    # Later pushes reuse the same workers.
    first = eng._workers['cpu']
    for _ in range(3):
        eng.push(_noop)
        eng.wait_for_all()
    assert eng._workers['cpu'] is first
    threads = list(eng._workers['cpu']._threads)
    assert [thread.name for thread in threads] == ['engine-cpu-0', 'engine-cpu-1']
    assert all(thread.daemon for thread in threads)  # they never hold the process at exit
    eng.shutdown()
    assert not any(thread.is_alive() for thread in threads)


def test_cpu_count_fallbacks(monkeypatch):
    monkeypatch.setattr(os, 'sched_getaffinity', lambda pid: set())
    assert threaded_module._cpu_count() == 1
    monkeypatch.delattr(os, 'sched_getaffinity')
    monkeypatch.setattr(os, 'cpu_count', lambda: None)
    assert threaded_module._cpu_count() == 1
    monkeypatch.setattr(os, 'cpu_count', lambda: 3)
    assert threaded_module._cpu_count() == 3


def test_get_engine_default_and_exit_hook(monkeypatch):
    registered = []
    monkeypatch.setattr(engine_module, '_engine', None)
    monkeypatch.delenv('FRAMEWORK_ENGINE', raising=False)
    monkeypatch.setattr(atexit, 'register', lambda *args: registered.append(args))
    eng = engine_module.get_engine()
    try:
        assert type(eng) is ThreadedEngine
        assert registered == [(engine_module._shutdown_at_exit, eng)]
    finally:
        eng.shutdown()


def test_exit_hook_prints_an_error_no_wait_raised(capsys):
    eng = NaiveEngine()

    def fail(run_ctx):
        raise ValueError('lost')

    eng.push(fail, name='f')
    engine_module._shutdown_at_exit(eng)
    err = capsys.readouterr().err
    assert err.startswith('framework.engine: a pushed function failed and no wait raised its '
                          'error:\nTraceback')
    assert err.rstrip().endswith('ValueError: f: lost')


def test_random_var_per_engine_and_device(monkeypatch):
    a, b = NaiveEngine(), NaiveEngine()
    var = random_var(engine=a)
    assert var._engine is a
    assert random_var(engine=a) is var and random_var('@numpy', a) is var
    assert random_var(backend.CpuDevice(), a) is var
    assert random_var(engine=b) is not var and random_var(engine=b)._engine is b
    monkeypatch.setattr(engine_module, '_engine', a)
    assert random_var() is var
    with pytest.raises(ValueError, match=_exactly(
            "random_var: device must be a Device, a device spec or None, but got 'tpu'")):
        random_var('tpu', a)


def test_parallel_map_on_the_process_engine_and_an_explicit_cpu(monkeypatch):
    eng = ThreadedEngine(num_cpu_workers=2)
    try:
        monkeypatch.setattr(engine_module, '_engine', eng)
        caller = threading.get_ident()
        for device in (None, '@numpy', backend.CpuDevice()):
            idents = parallel_map(lambda _: threading.get_ident(), range(4), device=device)
            assert caller not in idents, device
    finally:
        eng.shutdown()


def test_parallel_map_on_an_engine_without_workers_stops_at_the_first_error():
    calls = []

    def fn(i):
        calls.append(i)
        if i == 1:
            raise ValueError('boom')
        return i

    with pytest.raises(ValueError, match=_exactly('boom')):
        parallel_map(fn, range(4), engine=NaiveEngine())
    assert calls == [0, 1]


class _Callable:
    def __call__(self, i):
        raise ValueError(f'item {i}')


def test_parallel_map_errors_name_the_function_and_the_item(threaded):
    def fails(i):
        raise ValueError('boom')

    with pytest.raises(ValueError, match=_exactly(
            'parallel_map(test_parallel_map_errors_name_the_function_and_the_item.<locals>'
            '.fails) item 0: boom')):
        parallel_map(fails, range(3), engine=threaded)
    with pytest.raises(ValueError, match=_exactly('parallel_map(_Callable) item 0: item 0')):
        parallel_map(_Callable(), range(3), engine=threaded)


def test_parallel_slices_bounds(monkeypatch):
    assert parallel_slices(3, 1, engine=NaiveEngine()) == [slice(0, 1), slice(1, 2),
                                                            slice(2, 3)]
    eng = NaiveEngine()
    eng.num_cpu_workers = 4
    monkeypatch.setattr(engine_module, '_engine', eng)
    assert parallel_slices(8) == [slice(0, 2), slice(2, 4), slice(4, 6), slice(6, 8)]
    assert parallel_slices(0) == [] and parallel_slices(1) == [slice(0, 1)]


@pytest.mark.parametrize('how', ['push_async', 'push_operator'])
def test_run_context_of_each_kind_of_push(engine, how):
    seen = []
    for ctx in (None, EmulatedDevice()):
        if how == 'push_async':
            engine.push_async(lambda run_ctx, done: (seen.append(run_ctx.device), done()),
                              ctx=ctx)
        else:
            engine.push_operator(engine.new_operator(
                lambda run_ctx: seen.append(run_ctx.device)), ctx=ctx)
    engine.wait_for_all()
    assert [str(device) for device in seen] == ['@numpy', '@emulated']


def test_internal_operations_do_not_wait_for_a_worker():
    # Deletions of variables nothing uses run at once, in the pushing thread, even when every
    # worker is busy.
    eng = ThreadedEngine(num_cpu_workers=1)
    gate = threading.Event()
    try:
        eng.push(lambda run_ctx: gate.wait(5))
        v = eng.new_var()
        op = eng.new_operator(_noop, mutate_vars=(v,))
        eng.delete_operator(op)
        eng.delete_var(v)
        assert op.fn is None and v.deleted
    finally:
        gate.set()
        eng.shutdown()


def test_more_messages_whole(engine):
    other = type(engine)()
    stranger = other.new_var()
    try:
        with pytest.raises(ValueError, match=_exactly(
                f'push: {stranger!r} belongs to another engine; use the variables of the '
                'engine it is pushed to')):
            engine.push(_noop, const_vars=[stranger])
    finally:
        other.shutdown()
    with pytest.raises(TypeError, match=_exactly('push: name must be a str or None, but got '
                                                 'int')):
        engine.push(_noop, name=3)
    seen = []

    def shut_inside(run_ctx):
        with pytest.raises(RuntimeError) as error:
            engine.shutdown()
        seen.append(str(error.value))

    engine.push(shut_inside)
    engine.wait_for_all()
    assert seen == ['shutdown cannot be called inside a function run by the engine: it would '
                    'wait for itself']
    engine.shutdown()
    with pytest.raises(RuntimeError, match=_exactly(
            f'{type(engine).__name__} was shut down: nothing can be pushed to it any more')):
        engine.push(_noop)


def test_an_operator_is_named_after_its_function_or_its_repr(engine):
    assert engine.new_operator(_noop).name == '_noop'
    partial = functools.partial(_noop)                 # no __qualname__
    assert engine.new_operator(partial).name == repr(partial)
    assert engine.new_operator(partial, name='mine').name == 'mine'


def test_a_deletion_inside_a_function_leaves_the_thread_inside_it(threaded):
    # A deletion is an internal operation, run at once in the pushing thread (here a worker,
    # inside a function): when it returns, the worker is still inside the outer function.
    spare = threaded.new_var()
    seen = []

    def fn(run_ctx):
        threaded.delete_var(spare)
        seen.append(threaded.in_function())

    threaded.push(fn)
    threaded.wait_for_all()
    assert seen == [True] and not threaded.in_function()


@pytest.mark.parametrize('count', [True, False, 0, 2.0, '2'])
def test_worker_counts_must_be_positive_ints(count):
    with pytest.raises(ValueError, match=_exactly(
            'ThreadedEngine: num_cpu_workers must be a positive int or None, but got '
            f'{count!r}')):
        ThreadedEngine(count)
