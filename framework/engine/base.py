"""What every engine shares: variables, operators, run contexts, argument checks and errors.

An engine runs functions in an order that respects what they read and write. A function is
pushed with the variables it reads (``const_vars``) and those it writes (``mutate_vars``);
two functions that touch a common variable, one of them writing it, run in push order, and
reads between two writes may run at the same time (MXNet's rule). :class:`Engine` checks the
arguments, turns the variable lists into an :class:`Operator` and keeps the errors; its
subclasses decide when and where functions run (:class:`~framework.engine.NaiveEngine` at push,
:class:`~framework.engine.ThreadedEngine` on worker threads).

Errors are not lost. When a function raises (or an asynchronous one calls
``on_complete(error)``), the variables it writes are poisoned with the error; later functions
that read or write a poisoned variable are skipped and poison what they write in turn. The
error is raised, once, by the next :meth:`Engine.wait_for_var` on a poisoned variable or by the
next :meth:`Engine.wait_for_all`: the original exception, its message prefixed with the failed
function's name, with its original traceback. After that, waits are clean and poisoned
variables are usable again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import threading
from collections.abc import Callable, Iterable
from typing import Any

from framework import backend


@dataclasses.dataclass(frozen=True)
class RunContext:
    """What a running function learns from the engine.

    Attributes:
        device: the :class:`~framework.backend.Device` the function was pushed to.
        stream: on a GPU, the CuPy stream the function should use (current while it runs);
            None on the CPU.
    """

    device: backend.Device
    stream: Any = None


class Var:
    """A token standing for something functions read or write (an array, a file, a generator).

    Variables are made by :meth:`Engine.new_var` and belong to that engine.

    Attributes:
        version: the number of functions writing this variable that have finished.
    """

    __slots__ = ('_engine', '_id', 'version', '_failure', '_delete_pushed', '_deleted')

    def __init__(self, engine: Engine, var_id: int):
        self._engine = engine
        self._id = var_id
        self.version = 0
        self._failure: Failure | None = None
        self._delete_pushed = False
        self._deleted = False

    @property
    def deleted(self) -> bool:
        """Whether the deletion pushed by :meth:`Engine.delete_var` has run."""
        return self._deleted

    def __repr__(self):
        return f'<Var {self._id} of {type(self._engine).__name__}>'


class Operator:
    """A function with its variables, made once by :meth:`Engine.new_operator` and pushed
    any number of times with :meth:`Engine.push_operator`.

    Attributes:
        fn: the function, ``fn(run_ctx)`` or, when ``is_async``, ``fn(run_ctx, on_complete)``.
        const_vars (tuple of Var): the variables it only reads.
        mutate_vars (tuple of Var): the variables it writes; a variable given as both read and
            written, or given twice, appears once, here.
        is_async (bool): whether the function finishes only when it calls ``on_complete``.
        name (str): the name that errors of the function carry.
    """

    __slots__ = ('fn', 'const_vars', 'mutate_vars', 'is_async', 'name', '_always_run',
                 '_inline', '_delete_pushed')

    def __init__(self, fn, const_vars, mutate_vars, is_async, name, always_run=False,
                 inline=False):
        self.fn = fn
        self.const_vars = const_vars
        self.mutate_vars = mutate_vars
        self.is_async = is_async
        self.name = name
        # Engine-internal operators (waits, deletions) run even on poisoned variables, and
        # run in the thread that makes them ready instead of on a worker.
        self._always_run = always_run
        self._inline = inline
        self._delete_pushed = False

    def __repr__(self):
        return f'<Operator {self.name}>'


class Failure:
    """An error of a function, shared by every variable it poisons."""

    __slots__ = ('error', 'seq', 'reported')

    def __init__(self, error: BaseException, seq: int):
        self.error = error
        self.seq = seq
        self.reported = False


class Block:
    """One push of an operator: what the scheduler queues."""

    __slots__ = ('op', 'device', 'priority', 'seq', 'wait')

    def __init__(self, op: Operator, device: backend.Device, priority: int, seq: int):
        self.op = op
        self.device = device
        self.priority = priority
        self.seq = seq
        self.wait = 0


def _name_error(error: BaseException, name: str) -> None:
    """Puts the failed function's name into the message of ``error`` (same type, same
    traceback): prefixed to a string message, else added as a note."""
    args = error.args
    if args and isinstance(args[0], str):
        error.args = (f'{name}: {args[0]}',) + args[1:]
    with contextlib.suppress(Exception):
        if name in str(error):
            return
    error.add_note(f'raised in the engine function {name!r}')


class Engine:
    """The interface of the dependency engines; see the module docstring for the rules."""

    def __init__(self):
        self._lock = threading.Lock()
        self._seq = itertools.count()
        self._var_ids = itertools.count()
        self._failures: list[Failure] = []
        self._local = threading.local()
        self._shut = False

    # --- variables and operators ----------------------------------------------------------

    def new_var(self) -> Var:
        """Returns a new variable of this engine."""
        return Var(self, next(self._var_ids))

    def new_operator(self, fn: Callable, const_vars: Iterable[Var] = (),
                     mutate_vars: Iterable[Var] = (), is_async: bool = False,
                     name: str | None = None) -> Operator:
        """Makes an operator to push many times without checking its variables again.

        Args:
            fn: ``fn(run_ctx)``, or ``fn(run_ctx, on_complete)`` when ``is_async``.
            const_vars: the variables ``fn`` reads.
            mutate_vars: the variables ``fn`` writes.
            is_async: whether ``fn`` finishes only when it calls ``on_complete``.
            name: the name its errors carry (``fn``'s qualified name by default).
        """
        return self._operator('new_operator', fn, const_vars, mutate_vars, is_async, name)

    def delete_operator(self, op: Operator) -> None:
        """Deletes ``op`` once every push of it has finished; it cannot be pushed afterwards."""
        if not isinstance(op, Operator):
            raise TypeError('delete_operator: op must be an Operator made by new_operator, '
                            f'but got {type(op).__name__}')
        if op._delete_pushed:
            raise ValueError(f'delete_operator: {op!r} was deleted already')
        op._delete_pushed = True

        def delete(run_ctx):
            op.fn = None
        # Variables deleted already were deleted after every push of op.
        live = tuple(v for v in op.const_vars + op.mutate_vars if not v._delete_pushed)
        self._push_internal(delete, (), live, 'delete_operator')

    def push_operator(self, op: Operator, ctx=None, priority: int = 0) -> None:
        """Pushes an operator made by :meth:`new_operator` (see :meth:`push`)."""
        self._check_operator('push_operator', op)
        self._submit(op, self._device('push_operator', ctx),
                     self._priority('push_operator', priority))

    # --- pushing --------------------------------------------------------------------------

    def push(self, fn: Callable, ctx=None, const_vars: Iterable[Var] = (),
             mutate_vars: Iterable[Var] = (), priority: int = 0,
             name: str | None = None) -> None:
        """Schedules the synchronous function ``fn(run_ctx)``; returns at once.

        Args:
            fn: the function; it receives a :class:`RunContext`.
            ctx: the device it runs for (a :class:`~framework.backend.Device` or a device
                spec); the CPU when None.
            const_vars: the variables it reads.
            mutate_vars: the variables it writes.
            priority: among functions ready at the same time, higher runs first.
            name: the name its errors carry (``fn``'s qualified name by default).
        """
        op = self._operator('push', fn, const_vars, mutate_vars, False, name)
        self._submit(op, self._device('push', ctx), self._priority('push', priority))

    def push_async(self, fn: Callable, ctx=None, const_vars: Iterable[Var] = (),
                   mutate_vars: Iterable[Var] = (), priority: int = 0,
                   name: str | None = None) -> None:
        """Schedules ``fn(run_ctx, on_complete)``, finished only when it calls
        ``on_complete()`` (from any thread; ``on_complete(error)`` reports a failure, as
        raising from ``fn`` does). Arguments as :meth:`push`.
        """
        op = self._operator('push_async', fn, const_vars, mutate_vars, True, name)
        self._submit(op, self._device('push_async', ctx), self._priority('push_async', priority))

    def delete_var(self, var: Var) -> None:
        """Deletes ``var`` after every function pushed before that reads or writes it; it
        cannot be used afterwards."""
        self._check_vars('delete_var', 'var', (var,))
        var._delete_pushed = True

        def delete(run_ctx):
            var._deleted = True
            var._failure = None
        self._push_internal(delete, (), (var,), 'delete_var')

    # --- waiting --------------------------------------------------------------------------

    def wait_for_var(self, var: Var) -> None:
        """Returns once every function pushed before that writes ``var`` has finished
        (readers are not waited for).

        Raises:
            The error that poisoned ``var`` (see the module docstring), if not raised before.
        """
        self._check_vars('wait_for_var', 'var', (var,))
        self._check_not_inside('wait_for_var')
        self._wait_var(var)
        with self._lock:
            failure = self._live(var._failure)
            var._failure = None
            if failure is not None:
                failure.reported = True
                if failure in self._failures:
                    self._failures.remove(failure)
        if failure is not None:
            raise failure.error

    def wait_for_all(self) -> None:
        """Returns once every function pushed has finished.

        Raises:
            The error of the earliest pushed function that failed, if any failure has not
            been raised yet; every such failure counts as raised then.
        """
        self._check_not_inside('wait_for_all')
        self._wait_all()
        self._raise_failures()

    def shutdown(self) -> None:
        """Waits for every function pushed, stops the workers and refuses further pushes.

        Raises:
            As :meth:`wait_for_all`.
        """
        self._check_not_inside('shutdown')
        if not self._shut:
            self._wait_all()
            with self._lock:
                self._shut = True
            self._stop()
        self._raise_failures()

    def in_function(self) -> bool:
        """Whether the calling thread is running a function pushed to this engine (where a
        wait would wait for itself)."""
        return bool(getattr(self._local, 'depth', 0))

    # --- for subclasses -------------------------------------------------------------------

    def _enqueue(self, block: Block) -> None:
        """Schedules a block (called with the checks done)."""
        raise NotImplementedError

    def _wait_var(self, var: Var) -> None:
        raise NotImplementedError

    def _wait_all(self) -> None:
        raise NotImplementedError

    def _stop(self) -> None:
        """Stops the workers (everything pushed has finished)."""

    def _execute(self, block: Block, run_ctx: RunContext, done: Callable) -> None:
        """Runs a block's function, or skips it when one of its variables is poisoned, and
        calls ``done(block, failure)`` once it has finished (``failure`` None on success)."""
        op = block.op
        if not op._always_run:
            with self._lock:
                inherited = self._inherited_failure(op)
            if inherited is not None:
                done(block, inherited)
                return
        local = self._local
        local.depth = getattr(local, 'depth', 0) + 1
        try:
            with _activated(run_ctx):
                if op.is_async:
                    self._execute_async(block, run_ctx, done)
                else:
                    op.fn(run_ctx)
                    if run_ctx.stream is not None:
                        run_ctx.stream.synchronize()
        except BaseException as error:
            if not op.is_async:
                done(block, self._failure(block, error))
            if not isinstance(error, Exception):
                raise
        else:
            if not op.is_async:
                done(block, None)
        finally:
            local.depth -= 1

    def _finish(self, block: Block, failure: Failure | None) -> None:
        """Bookkeeping of a finished block, with the lock held: records and spreads its
        failure, counts the versions of what it wrote."""
        if failure is not None and failure.seq == block.seq:
            self._failures.append(failure)
        for var in block.op.mutate_vars:
            var.version += 1
            if failure is not None:
                var._failure = failure

    # --- helpers --------------------------------------------------------------------------

    def _execute_async(self, block, run_ctx, done):
        state = {'done': False}
        state_lock = threading.Lock()

        def complete(error: BaseException | None = None):
            if error is not None and not isinstance(error, BaseException):
                raise TypeError('on_complete: error must be an exception or None, but got '
                                f'{type(error).__name__}')
            with state_lock:
                if state['done']:
                    raise RuntimeError(f'on_complete of {block.op.name!r} called twice')
                state['done'] = True
            done(block, None if error is None else self._failure(block, error))

        try:
            block.op.fn(run_ctx, complete)
        except BaseException as error:
            failure = self._failure(block, error)
            with state_lock:
                late = state['done']
                state['done'] = True
            if late:
                # Raised after on_complete: nothing waits on it any more but wait_for_all.
                with self._lock:
                    self._failures.append(failure)
            else:
                done(block, failure)
            if not isinstance(error, Exception):
                raise

    def _failure(self, block: Block, error: BaseException) -> Failure:
        _name_error(error, block.op.name)
        return Failure(error, block.seq)

    @staticmethod
    def _live(failure: Failure | None) -> Failure | None:
        return None if failure is None or failure.reported else failure

    def _inherited_failure(self, op: Operator) -> Failure | None:
        """The earliest unreported failure poisoning a variable of ``op`` (lock held)."""
        found = None
        for var in itertools.chain(op.const_vars, op.mutate_vars):
            failure = self._live(var._failure)
            if failure is not None and (found is None or failure.seq < found.seq):
                found = failure
        return found

    def _raise_failures(self) -> None:
        with self._lock:
            pending = [f for f in self._failures if not f.reported]
            for failure in pending:
                failure.reported = True
            self._failures.clear()
        if pending:
            raise min(pending, key=lambda f: f.seq).error

    def _submit(self, op: Operator, device: backend.Device, priority: int) -> None:
        with self._lock:
            if self._shut:
                raise RuntimeError(f'{type(self).__name__} was shut down: nothing can be '
                                   'pushed to it any more')
            block = Block(op, device, priority, next(self._seq))
        self._enqueue(block)

    def _push_internal(self, fn, const_vars, mutate_vars, name) -> None:
        op = Operator(fn, tuple(const_vars), tuple(mutate_vars), False, name, always_run=True,
                      inline=True)
        self._submit(op, backend.CpuDevice(), 0)

    def _operator(self, where, fn, const_vars, mutate_vars, is_async, name) -> Operator:
        if not callable(fn):
            raise TypeError(f'{where}: fn must be callable, but got {type(fn).__name__}')
        if name is None:
            name = getattr(fn, '__qualname__', None) or repr(fn)
        elif not isinstance(name, str):
            raise TypeError(f'{where}: name must be a str or None, but got '
                            f'{type(name).__name__}')
        const_vars = self._check_vars(where, 'const_vars', const_vars)
        mutate_vars = self._check_vars(where, 'mutate_vars', mutate_vars)
        writes = tuple(dict.fromkeys(mutate_vars))
        written = set(writes)
        reads = tuple(v for v in dict.fromkeys(const_vars) if v not in written)
        return Operator(fn, reads, writes, bool(is_async), name)

    def _check_vars(self, where, arg, variables) -> tuple[Var, ...]:
        if isinstance(variables, Var):
            raise TypeError(f'{where}: {arg} must be an iterable of Vars, but got a single '
                            'Var; wrap it in a tuple')
        variables = tuple(variables)
        for var in variables:
            if not isinstance(var, Var):
                raise TypeError(f'{where}: {arg} must hold Vars made by new_var, but got '
                                f'{type(var).__name__}')
            if var._engine is not self:
                raise ValueError(f'{where}: {var!r} belongs to another engine; use the '
                                 'variables of the engine it is pushed to')
            if var._delete_pushed:
                raise ValueError(f'{where}: {var!r} was deleted')
        return variables

    def _check_operator(self, where, op) -> None:
        if not isinstance(op, Operator):
            raise TypeError(f'{where}: op must be an Operator made by new_operator, but got '
                            f'{type(op).__name__}')
        if op._delete_pushed:
            raise ValueError(f'{where}: {op!r} was deleted')
        self._check_vars(where, 'the variables of op', op.const_vars + op.mutate_vars)

    @staticmethod
    def _device(where, ctx) -> backend.Device:
        if ctx is None:
            return backend.CpuDevice()
        try:
            return backend.get_device(ctx)
        except ValueError:
            raise ValueError(f'{where}: ctx must be a Device, a device spec or None, but got '
                             f'{ctx!r}') from None

    @staticmethod
    def _priority(where, priority) -> int:
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f'{where}: priority must be an int, but got '
                            f'{type(priority).__name__}')
        return priority

    def _check_not_inside(self, where) -> None:
        if self.in_function():
            raise RuntimeError(f'{where} cannot be called inside a function run by the '
                               'engine: it would wait for itself')


def _activated(run_ctx: RunContext) -> contextlib.AbstractContextManager:
    """Makes the run context's device and stream current (a no-op on the CPU)."""
    if run_ctx.stream is None:
        return contextlib.nullcontext()
    stack = contextlib.ExitStack()
    stack.enter_context(run_ctx.device.scope())
    stack.enter_context(run_ctx.stream)
    return stack
