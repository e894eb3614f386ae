"""The naive engine: every function runs at push, in the pushing thread.

It obeys the same rules as the threaded engine with no concurrency at all, which makes it the
engine to debug with (``FRAMEWORK_ENGINE=naive``): a function runs under the stack of the code
that pushed it, where a debugger or a profiler finds it. Its errors poison variables and are
raised at the waits as with the threaded engine, so that code behaves the same under both. A
function pushed while another runs (by the running function itself, or by another thread)
runs after it, so push order is kept; an asynchronous function is waited for until it calls
``on_complete``.
"""

from __future__ import annotations

import collections
import threading

from framework import backend
from framework.engine.base import Block, Engine, Failure, RunContext, Var


class NaiveEngine(Engine):
    """Runs each pushed function at once, one at a time, in push order."""

    def __init__(self):
        super().__init__()
        self._queue: collections.deque[Block] = collections.deque()
        self._draining = False
        self._idle = threading.Condition(self._lock)
        self._waiters = 0

    def _enqueue(self, block: Block) -> None:
        with self._lock:
            self._queue.append(block)
            if self._draining:
                return
            self._draining = True
        try:
            while True:
                with self._lock:
                    if not self._queue:
                        break
                    block = self._queue.popleft()
                self._run(block)
        finally:
            with self._lock:
                self._draining = False
                if self._waiters:
                    self._idle.notify_all()

    def _run(self, block: Block) -> None:
        # A synchronous function is done when _execute returns; an asynchronous one when it
        # calls on_complete, possibly from another thread.
        finished = threading.Event() if block.op.is_async else None
        outcome: list[Failure | None] = []

        def done(block, failure):
            outcome.append(failure)
            if finished is not None:
                finished.set()

        try:
            self._execute(block, RunContext(block.device, _stream(block.device)), done)
            if finished is not None:
                finished.wait()
        finally:
            if outcome:
                with self._lock:
                    self._finish(block, outcome[0])

    def _wait_var(self, var: Var) -> None:
        self._wait_all()

    def _wait_all(self) -> None:
        with self._idle:
            self._waiters += 1
            try:
                self._idle.wait_for(lambda: not self._draining and not self._queue)
            finally:
                self._waiters -= 1


def _stream(device: backend.Device):
    """The current stream of a GPU device; None for other devices."""
    if isinstance(device, backend.GpuDevice):
        with device.scope():
            return device.xp.cuda.get_current_stream()
    return None
