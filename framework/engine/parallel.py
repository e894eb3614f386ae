"""Data parallelism on the host: one function over many items, on the engine's CPU workers.

NumPy runs its element-wise loops, copies and gathers on one core; only its matrix products
(BLAS) use several. Work made of many independent pieces (the levels of an image pyramid,
batches of crops) therefore runs faster as pieces side by side, one per core, each piece's
matrix products on a single BLAS thread, than one piece at a time with every core on its
products alone. :func:`parallel_map` does that on the CPU workers of the dependency engine,
as MXNet's engine runs independent operators at once and gives each its share of the cores'
threads (``OMP_NUM_THREADS`` per worker).

While any :func:`parallel_map` runs, BLAS runs one thread per call (threadpoolctl's limit,
which is process-wide: BLAS calls of other threads of the process meanwhile run on one
thread too); the limit is lifted when the last one finishes. Some OpenBLAS builds (0.3.31)
ignore a thread count set from a thread other than the main one once the main thread has set
one: a map called from such a thread then computes the same, only with BLAS's threads
competing.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable

import threadpoolctl

from framework import backend
from framework.config import thread_settings, using_config
from framework.engine.base import Engine

_blas_lock = threading.Lock()
_blas_users = 0
_blas_limit = None  # the limit in force, while _blas_users > 0
_blas_controller = None  # threadpoolctl's view of the loaded BLAS, made on first use


def parallel_map(fn: Callable, items: Iterable, device=None, engine: Engine | None = None
                 ) -> list:
    """``[fn(item) for item in items]``, the calls running at the same time on the CPU
    workers of the dependency engine, each with one BLAS thread.

    The calls run with the calling thread's configuration (``train``, ``enable_backprop``,
    ...). They run one after another, in the calling thread, where running them at once
    cannot help or could not be waited for: for fewer than two items, for a device other
    than the CPU (a GPU runs one kernel at a time per stream), on an engine with fewer than
    two CPU workers (:class:`~framework.engine.NaiveEngine`, ``ThreadedEngine(1)``), or when
    called from a function the engine runs.

    Args:
        fn (callable): a function of one item; its calls must not depend on each other.
        items (iterable): the items.
        device: the device the work computes on (a Device or device spec); the CPU when None.
        engine (~framework.engine.Engine): the engine whose workers run the calls;
            :func:`framework.engine.get_engine` when None.

    Returns:
        list: the results, in the order of ``items``.

    Raises:
        The error of the first call (in the order of ``items``) that failed, once every call
        has finished.
    """
    from framework.engine import get_engine

    if not callable(fn):
        raise TypeError(f'parallel_map: fn must be callable, but got {type(fn).__name__}')
    items = list(items)
    engine = get_engine() if engine is None else engine
    on_cpu = device is None or isinstance(backend.get_device(device), backend.CpuDevice)
    if (len(items) < 2 or not on_cpu or getattr(engine, 'num_cpu_workers', 1) < 2
            or engine.in_function()):
        return [fn(item) for item in items]
    settings = thread_settings()
    results = [None] * len(items)

    def call(i):
        def run(run_ctx):
            with contextlib.ExitStack() as stack:
                for name, value in settings.items():
                    stack.enter_context(using_config(name, value))
                results[i] = fn(items[i])
        return run

    name = getattr(fn, '__qualname__', type(fn).__qualname__)
    variables = [engine.new_var() for _ in items]
    with _single_threaded_blas():
        for i, var in enumerate(variables):
            engine.push(call(i), mutate_vars=(var,), name=f'parallel_map({name}) item {i}')
        errors = []
        for var in variables:
            try:
                engine.wait_for_var(var)
            except Exception as error:
                errors.append(error)
            engine.delete_var(var)
    if errors:
        raise errors[0]
    return results


def parallel_slices(length: int, max_size: int | None = None, engine: Engine | None = None
                    ) -> list[slice]:
    """Slices that split ``range(length)`` into pieces for :func:`parallel_map`: of at most
    ``max_size`` items each, of near-equal sizes, and as many as a multiple of the engine's
    CPU workers where there are enough items, so that every worker gets an equal share.

    Args:
        length (int): the number of items.
        max_size (int): the most items of a piece (a positive int); None for no bound (one
            piece per worker).
        engine (~framework.engine.Engine): the engine whose workers would run the pieces;
            :func:`framework.engine.get_engine` when None.

    Returns:
        list of slice: consecutive slices covering ``range(length)``; empty when ``length``
        is 0.
    """
    from framework.engine import get_engine

    if max_size is None:
        max_size = max(length, 1)
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
        raise ValueError(f'parallel_slices: max_size must be a positive int, but got '
                         f'{max_size!r}')
    engine = get_engine() if engine is None else engine
    workers = max(1, getattr(engine, 'num_cpu_workers', 1))
    count = -(-length // max_size)
    count = min(length, -(-count // workers) * workers)
    bounds = [length * i // count for i in range(count + 1)] if count else [0]
    return [slice(begin, end) for begin, end in zip(bounds[:-1], bounds[1:])]


@contextlib.contextmanager
def _single_threaded_blas():
    """BLAS on one thread while any caller is inside (the limit is process-wide)."""
    global _blas_users, _blas_limit, _blas_controller
    with _blas_lock:
        if not _blas_users:
            if _blas_controller is None:
                _blas_controller = threadpoolctl.ThreadpoolController()
            _blas_limit = _blas_controller.limit(limits=1, user_api='blas')
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if not _blas_users:
                _blas_limit.restore_original_limits()
                _blas_limit = None
