"""The dependency engine (MXNet's): functions scheduled by the variables they read and write.

A function is pushed with the variables it reads and those it writes, and the engine runs it
when the functions pushed before it are done with them::

    from framework import engine

    eng = engine.get_engine()
    a, b = eng.new_var(), eng.new_var()
    eng.push(lambda run_ctx: fill(x), mutate_vars=(a,))             # writes x
    eng.push(lambda run_ctx: use(x, y), const_vars=(a,), mutate_vars=(b,))
    eng.wait_for_var(b)                                             # y is ready

Rules (MXNet's): two functions touching a common variable, at least one writing it, run in
push order; reads between two writes may run at the same time; a variable given as both read
and written, or twice, counts once, as written. Pushing returns at once and is thread-safe; a
running function may push more. :meth:`~Engine.wait_for_var` waits for the writers pushed
before it (not the readers), :meth:`~Engine.wait_for_all` for everything. An error of a
function poisons what it writes and is raised once by the next wait that meets it (see
:mod:`framework.engine.base`).

Two engines sit behind this interface: :class:`ThreadedEngine` (worker threads, the default)
and :class:`NaiveEngine` (everything at push, for debugging). :func:`get_engine` returns the
process's engine, chosen by the environment variable ``FRAMEWORK_ENGINE`` (``threaded`` or
``naive``).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import traceback
import weakref

from framework import backend
from framework.engine.base import Engine, Operator, RunContext, Var
from framework.engine.naive import NaiveEngine
from framework.engine.parallel import parallel_map, parallel_slices
from framework.engine.threaded import ThreadedEngine

__all__ = ['Engine', 'NaiveEngine', 'Operator', 'RunContext', 'ThreadedEngine', 'Var',
           'get_engine', 'parallel_map', 'parallel_slices',
           'random_var']

_KINDS = {'naive': NaiveEngine, 'threaded': ThreadedEngine}
_engine: Engine | None = None
_engine_lock = threading.Lock()


def get_engine() -> Engine:
    """Returns the engine of this process, made on first use.

    Its kind is read from the environment variable ``FRAMEWORK_ENGINE``: ``threaded`` (the
    default) or ``naive``.

    Raises:
        ValueError: when ``FRAMEWORK_ENGINE`` names no engine.
    """
    global _engine
    with _engine_lock:
        if _engine is None:
            kind = os.environ.get('FRAMEWORK_ENGINE', '').strip().lower() or 'threaded'
            if kind not in _KINDS:
                raise ValueError(f"get_engine: FRAMEWORK_ENGINE must be 'naive' or "
                                 f"'threaded', but got {os.environ['FRAMEWORK_ENGINE']!r}")
            _engine = _KINDS[kind]()
            atexit.register(_shutdown_at_exit, _engine)
        return _engine


_random_vars: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_random_vars_lock = threading.Lock()


def random_var(device=None, engine: Engine | None = None) -> Var:
    """Returns the variable of ``engine`` standing for the main random stream of ``device``.

    Work pushed to the engine that draws from the main stream of ``device``
    (:func:`framework.resources.random_state`) lists this variable among those it writes, so
    that the draws happen in push order and give the same numbers whichever engine runs them.

    Args:
        device: a Device or device spec; the CPU when None.
        engine: the engine the variable belongs to; :func:`get_engine` when None.

    Returns:
        The same :class:`Var` for the same engine and device on every call.
    """
    try:
        device = backend.CpuDevice() if device is None else backend.get_device(device)
    except ValueError:
        raise ValueError(f'random_var: device must be a Device, a device spec or None, but got '
                         f'{device!r}') from None
    engine = get_engine() if engine is None else engine
    with _random_vars_lock:
        per_device = _random_vars.setdefault(engine, {})
        var = per_device.get(device)
        if var is None:
            var = per_device[device] = engine.new_var()
        return var


def _shutdown_at_exit(engine: Engine) -> None:
    """Lets pushed functions finish at exit; an error no wait raised is printed, not lost."""
    try:
        engine.shutdown()
    except Exception:
        print('framework.engine: a pushed function failed and no wait raised its error:',
              file=sys.stderr)
        traceback.print_exc()
