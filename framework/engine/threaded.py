"""The threaded engine: functions run on worker threads as soon as their variables allow.

Each variable keeps a queue of the pushes waiting for it, in push order, with the number of
reads running and whether a write runs (MXNet's versioned variables). A read is granted when
no write runs or waits before it; a write when nothing runs on the variable and nothing waits
before it. A push is ready when all its variables granted it; it then goes to the workers of
its device: on the CPU (and host-memory devices) a pool of threads sized from the cores, on
each GPU two threads with a stream each. Among ready functions, higher priority runs first,
then earlier pushes. NumPy releases the GIL in its loops and BLAS calls, so functions on
different variables really run at the same time.
"""

from __future__ import annotations

import collections
import heapq
import os
import threading

from framework import backend
from framework.engine.base import Block, Engine, Failure, Operator, RunContext, Var

_GPU_WORKERS = 2


class _ThreadedVar(Var):
    """A variable with its queue of waiting pushes.

    The queue holds ``(block, is_write)`` pairs not granted yet. Invariant: when no write runs
    and the queue is not empty, its head is a write waiting for the running reads.
    """

    __slots__ = ('_queue', '_readers', '_writing')

    def __init__(self, engine, var_id):
        super().__init__(engine, var_id)
        self._queue: collections.deque[tuple[Block, bool]] = collections.deque()
        self._readers = 0
        self._writing = False

    def _append_read(self, block) -> bool:
        """Queues a read; returns whether it is granted at once."""
        if not self._writing and not self._queue:
            self._readers += 1
            return True
        self._queue.append((block, False))
        return False

    def _append_write(self, block) -> bool:
        """Queues a write; returns whether it is granted at once."""
        if not self._writing and not self._readers and not self._queue:
            self._writing = True
            return True
        self._queue.append((block, True))
        return False

    def _complete_read(self, ready: list) -> None:
        self._readers -= 1
        if not self._readers and self._queue:
            self._grant_write(ready)

    def _complete_write(self, ready: list) -> None:
        self._writing = False
        queue = self._queue
        while queue and not queue[0][1]:
            self._readers += 1
            _grant(queue.popleft()[0], ready)
        if not self._readers and queue:
            self._grant_write(ready)

    def _grant_write(self, ready):
        block, _ = self._queue.popleft()
        self._writing = True
        _grant(block, ready)


def _grant(block: Block, ready: list) -> None:
    block.wait -= 1
    if not block.wait:
        ready.append(block)


class _Workers:
    """Threads running the ready blocks of one device kind, highest priority first."""

    def __init__(self, engine: ThreadedEngine, name: str, n_threads: int, device=None):
        self._engine = engine
        self._name = name
        self._n_threads = n_threads
        self._device = device
        self._heap: list = []
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._stopping = False

    def submit(self, block: Block) -> None:
        with self._cond:
            heapq.heappush(self._heap, (-block.priority, block.seq, block))
            if not self._threads:
                for i in range(self._n_threads):
                    thread = threading.Thread(target=self._loop, name=f'{self._name}-{i}',
                                              daemon=True)
                    thread.start()
                    self._threads.append(thread)
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()

    def _loop(self) -> None:
        stream = self._make_stream()
        engine = self._engine
        while True:
            with self._cond:
                while not self._heap and not self._stopping:
                    self._cond.wait()
                if not self._heap:
                    return
                block = heapq.heappop(self._heap)[2]
            try:
                engine._execute(block, RunContext(block.device, stream), engine._on_complete)
            except Exception:
                raise
            except BaseException:
                pass  # SystemExit or the like from the function: recorded as its failure

    def _make_stream(self):
        if self._device is None:
            return None
        with self._device.scope():
            return self._device.xp.cuda.Stream(non_blocking=True)


class ThreadedEngine(Engine):
    """Runs pushed functions on worker threads, in parallel where dependencies allow.

    Args:
        num_cpu_workers: the number of threads running CPU functions; by default the number
            of cores this process may use.
    """

    def __init__(self, num_cpu_workers: int | None = None):
        super().__init__()
        if num_cpu_workers is None:
            num_cpu_workers = _cpu_count()
        if isinstance(num_cpu_workers, bool) or not isinstance(num_cpu_workers, int) or \
                num_cpu_workers < 1:
            raise ValueError('ThreadedEngine: num_cpu_workers must be a positive int or None, '
                             f'but got {num_cpu_workers!r}')
        self.num_cpu_workers = num_cpu_workers
        self._pending = 0
        self._all_done = threading.Condition(self._lock)
        self._workers: dict[object, _Workers] = {}

    def new_var(self) -> Var:
        return _ThreadedVar(self, next(self._var_ids))

    def _enqueue(self, block: Block) -> None:
        op = block.op
        with self._lock:
            self._pending += 1
            blocked = 0
            for var in op.const_vars:
                blocked += not var._append_read(block)
            for var in op.mutate_vars:
                blocked += not var._append_write(block)
            block.wait = blocked
        if not blocked:
            self._dispatch(block)

    def _dispatch(self, block: Block) -> None:
        if block.op._inline:
            self._execute(block, RunContext(block.device), self._on_complete)
        else:
            self._workers_of(block.device).submit(block)

    def _on_complete(self, block: Block, failure: Failure | None) -> None:
        ready: list[Block] = []
        with self._lock:
            self._finish(block, failure)
            for var in block.op.const_vars:
                var._complete_read(ready)
            for var in block.op.mutate_vars:
                var._complete_write(ready)
            self._pending -= 1
            if not self._pending:
                self._all_done.notify_all()
        for ready_block in ready:
            self._dispatch(ready_block)

    def _workers_of(self, device: backend.Device) -> _Workers:
        key = device if isinstance(device, backend.GpuDevice) else 'cpu'
        workers = self._workers.get(key)
        if workers is None:
            with self._lock:
                workers = self._workers.get(key)
                if workers is None:
                    if key == 'cpu':
                        workers = _Workers(self, 'engine-cpu', self.num_cpu_workers)
                    else:
                        workers = _Workers(self, f'engine-gpu{device.device_id}', _GPU_WORKERS,
                                           device)
                    self._workers[key] = workers
        return workers

    def _wait_var(self, var: Var) -> None:
        if self._shut:
            return
        done = threading.Event()
        op = Operator(lambda run_ctx: done.set(), (var,), (), False, 'wait_for_var',
                      always_run=True, inline=True)
        self._submit(op, backend.CpuDevice(), 0)
        done.wait()

    def _wait_all(self) -> None:
        with self._all_done:
            self._all_done.wait_for(lambda: not self._pending)

    def _stop(self) -> None:
        for workers in list(self._workers.values()):
            workers.stop()


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1
