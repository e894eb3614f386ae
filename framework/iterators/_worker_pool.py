"""The worker processes of :class:`~framework.iterators.MultiprocessIterator`.

The main process puts tasks (a batch, its shared block, some ``(position, index)`` pairs and
the number of the batch's first example in the iteration) on one queue; workers seed the
random generators for each example (see :mod:`framework.iterators._example_seeds`), read it,
copy its arrays into the batch's region of the shared block (see
:mod:`framework.iterators._packing`) and put the rest on a result queue. An error in a worker
comes back with its traceback. Everything that needs cleaning up (processes, queues, shared
blocks) lives here, apart from the iterator, so that a finalizer can release it when the
iterator is finalized, collected, or the interpreter exits.
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing.connection
import os
import pickle
import queue
import signal
import time
import traceback
import warnings
from multiprocessing import resource_tracker, shared_memory

import numpy

from framework.iterators import _example_seeds, _packing

_POLL_SECONDS = 0.1
_JOIN_SECONDS = 5.0
_ATTACHED_BLOCKS = 16


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker (the ``__cause__`` of the error)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self):
        return self.text


class WorkerError(RuntimeError):
    """An error of a worker that could not be sent as it was (it does not pickle)."""


class WorkerDied(RuntimeError):
    """A worker process ended without being asked to."""


def _context():
    # Fork where there is one: the dataset (with its lambdas and open files) is inherited
    # rather than pickled, and workers start in milliseconds.
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


def _worker_main(worker_id, dataset, seed, tasks, results, stop, max_tasks, parent_pid):
    # Ctrl-C goes to the main process, which shuts the workers down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    blocks: collections.OrderedDict = collections.OrderedDict()
    n_done = 0
    try:
        while not stop.is_set():
            try:
                task = tasks.get(timeout=1.0)
            except queue.Empty:
                if os.getppid() != parent_pid:
                    return  # the main process is gone
                continue
            if task is None:
                return
            _run_task(dataset, seed, task, results, stop, blocks)
            n_done += 1
            if max_tasks is not None and n_done >= max_tasks:
                results.put(('retired', worker_id))
                return
    finally:
        for block in blocks.values():
            block.close()


def _run_task(dataset, seed, task, results, stop, blocks):
    job_id, block_name, mem_size, items, first = task
    buffer = None if block_name is None else _attach(blocks, block_name).buf
    examples = []
    needed = 0
    index = None
    try:
        for position, index in items:
            if stop.is_set():
                return
            start = position * mem_size
            _example_seeds.seed_generators(seed, first + position)
            example, need = _packing.pack(dataset[index], buffer, start, start + mem_size)
            examples.append(example)
            needed = max(needed, need)
        results.put(('ok', job_id, [p for p, _ in items], examples, needed))
    except Exception as error:
        text = traceback.format_exc()
        try:
            pickle.dumps(error)
        except Exception:
            error = WorkerError(f'{type(error).__name__}: {error}')
        results.put(('error', job_id, len(items), error, text, index))
    finally:
        del buffer


def _attach(blocks, name):
    block = blocks.get(name)
    if block is None:
        block = shared_memory.SharedMemory(name)
        blocks[name] = block
        if len(blocks) > _ATTACHED_BLOCKS:
            blocks.popitem(last=False)[1].close()
    else:
        blocks.move_to_end(name)
    return block


class _Slot:
    """A shared block holding one batch: ``batch_size`` regions of ``mem_size`` bytes."""

    def __init__(self, batch_size: int, mem_size: int):
        self.mem_size = mem_size
        self.block = None
        if mem_size > 0:
            self.block = shared_memory.SharedMemory(create=True, size=batch_size * mem_size)

    @property
    def name(self):
        return None if self.block is None else self.block.name

    def release(self):
        if self.block is not None:
            self.block.close()
            self.block.unlink()
            self.block = None


class Job:
    """A batch being loaded."""

    def __init__(self, job_id: int, slot: _Slot, size: int):
        self.job_id = job_id
        self.slot = slot
        self.examples = [None] * size
        self.remaining = size
        self.error = None
        self.discarded = False


class WorkerPool:
    """Worker processes loading batches of a dataset through shared memory.

    Args:
        dataset: the dataset (inherited by forked workers, pickled otherwise).
        seed: the seed of the examples' random draws (a non-negative int).
        batch_size: the largest number of examples of a batch.
        n_processes: the number of workers.
        maxtasksperchild: the number of tasks after which a worker is replaced, or None.
        who: the name of the iterator, for messages.
    """

    def __init__(self, dataset, seed: int, batch_size: int, n_processes: int, maxtasksperchild,
                 who: str):
        self._dataset = dataset
        self._seed = seed
        self._batch_size = batch_size
        self._n_processes = n_processes
        self._max_tasks = maxtasksperchild
        self._who = who
        self._context = _context()
        # Shared blocks made here must be known to the one tracker the workers report to too.
        resource_tracker.ensure_running()
        self._tasks = self._context.Queue()
        self._results = self._context.Queue()
        self._stop = self._context.Event()
        self._workers: dict = {}
        self._jobs: dict[int, Job] = {}
        self._free_slots: list[_Slot] = []
        self._job_ids = itertools.count()
        #: The largest size (bytes) the arrays of one example have needed so far.
        self.max_needed = 0
        self.closed = False
        for worker_id in range(n_processes):
            self._spawn(worker_id)

    def _spawn(self, worker_id: int) -> None:
        process = self._context.Process(
            target=_worker_main, name=f'{self._who}-worker-{worker_id}', daemon=True,
            args=(worker_id, self._dataset, self._seed, self._tasks, self._results, self._stop,
                  self._max_tasks, os.getpid()))
        process.start()
        self._workers[worker_id] = process

    def submit(self, indices: numpy.ndarray, first: int, mem_size: int) -> Job:
        """Starts loading the examples at ``indices``, the first of which is the example
        number ``first`` of the iteration, with ``mem_size`` bytes of shared memory per
        example (0: none)."""
        job = Job(next(self._job_ids), self._take_slot(mem_size), len(indices))
        self._jobs[job.job_id] = job
        items = list(enumerate(index.item() for index in indices))
        chunk = max(len(items) // (self._n_processes * 2), 1)
        for begin in range(0, len(items), chunk):
            self._tasks.put((job.job_id, job.slot.name, job.slot.mem_size,
                             items[begin:begin + chunk], first))
        return job

    def _take_slot(self, mem_size: int) -> _Slot:
        for i, slot in enumerate(self._free_slots):
            if slot.mem_size == mem_size:
                return self._free_slots.pop(i)
        if self._free_slots:
            self._free_slots.pop().release()
        return _Slot(self._batch_size, mem_size)

    def wait(self, job: Job, timeout: float | None, warning_type) -> list:
        """The examples of ``job`` once all are loaded; raises the error of a worker."""
        started = time.monotonic()
        warned = False
        try:
            while job.remaining and job.error is None:
                if not self._pump(_POLL_SECONDS):
                    self._check_workers(job)
                if (timeout is not None and not warned
                        and time.monotonic() - started > timeout):
                    warnings.warn(f'{self._who}: a batch has not been loaded within '
                                  f'{timeout} seconds (dataset_timeout); the dataset may '
                                  'be slow or stuck', warning_type, stacklevel=4)
                    warned = True
            if job.error is not None:
                raise _remote_error(*job.error)
            buffer = None if job.slot.block is None else job.slot.block.buf
            batch = [_packing.unpack(example, buffer) for example in job.examples]
            del buffer
        except BaseException:
            self.discard(job)
            raise
        self._finish(job)
        return batch

    def discard(self, job: Job) -> None:
        """Gives up ``job``; its shared block is reused once the workers are done with it."""
        if job.job_id not in self._jobs:
            return
        job.discarded = True
        job.examples = None
        if job.remaining == 0:
            self._finish(job)

    def _finish(self, job: Job) -> None:
        del self._jobs[job.job_id]
        if self.closed:
            job.slot.release()
        else:
            self._free_slots.append(job.slot)

    def _pump(self, timeout: float) -> bool:
        """Handles one message of the workers, waiting up to ``timeout`` seconds for it;
        returns whether there was one."""
        try:
            message = self._results.get(timeout=timeout)
        except queue.Empty:
            return False
        self._handle(message)
        return True

    def _handle(self, message) -> None:
        kind = message[0]
        if kind == 'retired':
            self._workers.pop(message[1]).join()
            if not self.closed:
                self._spawn(message[1])
            return
        job = self._jobs.get(message[1])
        if job is None:
            return
        if kind == 'ok':
            _, _, positions, examples, needed = message
            self.max_needed = max(self.max_needed, needed)
            if not job.discarded:
                for position, example in zip(positions, examples):
                    job.examples[position] = example
            job.remaining -= len(positions)
        else:
            _, _, count, error, text, index = message
            if job.error is None:
                job.error = (error, text, index, self._who)
            job.remaining -= count
        if job.discarded and job.remaining == 0:
            self._finish(job)

    def _check_workers(self, job: Job) -> None:
        """Raises :class:`WorkerDied` (and closes the pool) if a worker has died and ``job``
        cannot complete without it."""
        dead = [p for p in self._workers.values() if p.exitcode not in (None, 0)]
        if not dead:
            return
        # The results the workers sent before may still complete the job.
        while job.remaining and job.error is None and self._pump(_POLL_SECONDS):
            pass
        if not job.remaining or job.error is not None:
            return
        code = dead[0].exitcode
        how = f'was killed by signal {-code}' if code < 0 else f'exited with code {code}'
        self.close()
        raise WorkerDied(f'{self._who}: worker process {dead[0].pid} {how} while '
                                 'loading examples; the workers have been stopped and will be '
                                 'restarted by the next batch')

    def close(self) -> None:
        """Stops the workers and releases the queues and shared blocks. Idempotent."""
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        for _ in self._workers:
            self._tasks.put(None)
        deadline = time.monotonic() + _JOIN_SECONDS
        while time.monotonic() < deadline:
            # Reading the results lets workers that are flushing them exit.
            while self._pump(0):
                pass
            alive = [p.sentinel for p in self._workers.values() if p.is_alive()]
            if not alive:
                break
            multiprocessing.connection.wait(alive, timeout=_POLL_SECONDS)
        for process in self._workers.values():
            if process.is_alive():
                process.terminate()
            process.join()
        self._workers.clear()
        for q in (self._tasks, self._results):
            q.cancel_join_thread()
            q.close()
        for slot in self._free_slots:
            slot.release()
        self._free_slots.clear()
        for job in self._jobs.values():
            job.slot.release()
        self._jobs.clear()


def _remote_error(error, text, index, who):
    error.__cause__ = RemoteTraceback(text)
    if hasattr(error, 'add_note'):
        error.add_note(f'{who}: raised in a worker process while reading example {index} of '
                       'the dataset (the worker traceback is shown above)')
    return error
