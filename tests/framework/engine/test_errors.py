"""Errors of pushed functions: poisoned variables, skipped functions, raised once at a wait."""

import threading
import traceback

import pytest


class ExplodeError(Exception):
    pass


def explode(run_ctx):
    raise ExplodeError('bad input')


def _frames(error):
    return [frame.name for frame in traceback.extract_tb(error.__traceback__)]


def test_error_surfaces_once_at_wait_for_var_with_name_and_traceback(engine):
    a, b = engine.new_var(), engine.new_var()
    engine.push(explode, const_vars=(a,), mutate_vars=(b,))
    with pytest.raises(ExplodeError, match='^explode: bad input$') as info:
        engine.wait_for_var(b)
    assert _frames(info.value)[-1] == 'explode'
    engine.wait_for_var(b)
    engine.wait_for_all()


def test_readers_and_writers_of_a_poisoned_var_are_skipped_and_spread_the_error(engine):
    a, b, c, d = (engine.new_var() for _ in range(4))
    ran = []
    engine.push(explode, mutate_vars=(a,))
    engine.push(lambda run_ctx: ran.append('reads a'), const_vars=(a,), mutate_vars=(b,))
    engine.push(lambda run_ctx: ran.append('writes a'), mutate_vars=(a,))
    engine.push(lambda run_ctx: ran.append('reads b'), const_vars=(b,), mutate_vars=(c,))
    engine.push(lambda run_ctx: ran.append('clean'), mutate_vars=(d,))
    engine.wait_for_var(d)
    with pytest.raises(ExplodeError, match='explode: bad input'):
        engine.wait_for_var(c)
    for var in (a, b, c):
        engine.wait_for_var(var)
    engine.wait_for_all()
    assert ran == ['clean']


def test_wait_for_var_on_an_untouched_var_is_clean(engine):
    a, b = engine.new_var(), engine.new_var()
    engine.push(explode, const_vars=(b,), mutate_vars=(a,))
    engine.wait_for_var(b)
    with pytest.raises(ExplodeError):
        engine.wait_for_all()


def test_wait_for_all_raises_the_earliest_failure_and_clears_the_others(engine):
    variables = [engine.new_var() for _ in range(3)]

    def fail(k):
        def fn(run_ctx):
            raise ValueError(f'failure {k}')
        return fn
    for k, var in enumerate(variables):
        engine.push(fail(k), mutate_vars=(var,), name=f'fail{k}')
    with pytest.raises(ValueError, match='^fail0: failure 0$'):
        engine.wait_for_all()
    engine.wait_for_all()
    for var in variables:
        engine.wait_for_var(var)


def test_a_var_is_usable_again_once_its_error_was_raised(engine):
    v = engine.new_var()
    out = []
    engine.push(explode, mutate_vars=(v,))
    with pytest.raises(ExplodeError):
        engine.wait_for_var(v)
    engine.push(lambda run_ctx: out.append(1), mutate_vars=(v,))
    engine.wait_for_var(v)
    assert out == [1]


def test_async_function_fails_by_on_complete_or_by_raising(engine):
    a, b = engine.new_var(), engine.new_var()

    def report(run_ctx, on_complete):
        threading.Thread(target=on_complete, args=(KeyError('missing'),)).start()

    def raise_(run_ctx, on_complete):
        raise OSError('disk')
    engine.push_async(report, mutate_vars=(a,), name='report')
    engine.push_async(raise_, mutate_vars=(b,), name='read_file')
    with pytest.raises(KeyError, match='report: missing'):
        engine.wait_for_var(a)
    with pytest.raises(OSError, match='read_file: disk') as info:
        engine.wait_for_var(b)
    assert _frames(info.value)[-1] == 'raise_'


def test_on_complete_twice_is_an_error(engine):
    v = engine.new_var()

    def twice(run_ctx, on_complete):
        on_complete()
        on_complete()
    engine.push_async(twice, mutate_vars=(v,))
    engine.wait_for_var(v)
    with pytest.raises(RuntimeError, match="on_complete of .*twice' called twice"):
        engine.wait_for_all()


def test_message_without_a_string_gets_the_name_as_a_note(engine):
    def code(run_ctx):
        raise ValueError(3)
    engine.push(code, name='coder')
    with pytest.raises(ValueError) as info:
        engine.wait_for_all()
    assert info.value.args == (3,)
    assert info.value.__notes__ == ["raised in the engine function 'coder'"]


def test_waiting_inside_a_function_is_an_error(engine):
    v = engine.new_var()
    engine.push(lambda run_ctx: engine.wait_for_all(), mutate_vars=(v,))
    with pytest.raises(RuntimeError, match='wait_for_all cannot be called inside a function '
                                           'run by the engine'):
        engine.wait_for_var(v)


def test_shutdown_raises_what_no_wait_raised(engine):
    engine.push(explode)
    with pytest.raises(ExplodeError):
        engine.shutdown()
    engine.shutdown()
