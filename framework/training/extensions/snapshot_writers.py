"""Snapshot writers: how a :func:`~framework.training.extensions.snapshot` is written.

Every writer puts the file in place atomically: the saving function writes into a temporary
directory inside the output directory, the file is flushed to disk and then renamed to its
name. A process killed in the middle leaves at most a ``tmp<filename>...`` directory behind,
never a partial file under the snapshot's name.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Callable

from framework.engine import Engine, get_engine
from framework.serializers.npz import save_npz


class Writer:
    """The base class of snapshot writers.

    A writer is called as ``writer(filename, outdir, target)`` each time a snapshot is taken,
    ``target`` being the serialized object (a dict of arrays that also has a ``serialize``
    method, so that :func:`~framework.serializers.save_npz` can save it).
    """

    def __init__(self):
        self._post_save_hooks: list[Callable] = []

    def __call__(self, filename: str, outdir: str, target) -> None:
        raise NotImplementedError(f'{type(self).__name__} must implement __call__')

    def finalize(self) -> None:
        """Waits for the snapshots in progress; called at the end of the training."""

    def save(self, filename: str, outdir: str, target, savefun: Callable, **kwds) -> None:
        """Saves ``target`` to ``outdir/filename`` with ``savefun(path, target, **kwds)``,
        atomically, then runs the post-save hooks (the removal of stale snapshots)."""
        tmpdir = tempfile.mkdtemp(prefix='tmp' + filename, dir=outdir)
        try:
            tmppath = os.path.join(tmpdir, filename)
            savefun(tmppath, target, **kwds)
            _fsync(tmppath)
            os.replace(tmppath, os.path.join(outdir, filename))
            _fsync_directory(outdir)
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
        for hook in self._post_save_hooks:
            hook()

    def _add_cleanup_hook(self, hook: Callable) -> None:
        """Adds a function called with no argument after each save."""
        self._post_save_hooks.append(hook)


def _fsync(path: str) -> None:
    with open(path, 'rb') as f:
        os.fsync(f.fileno())


def _fsync_directory(path: str) -> None:
    """Makes a rename in ``path`` durable (where the platform allows it)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class SimpleWriter(Writer):
    """Writes the snapshot in the calling thread.

    Args:
        savefun (callable): ``savefun(path, target, **kwds)``; :func:`save_npz` by default.
        kwds: keyword arguments for ``savefun``.
    """

    def __init__(self, savefun: Callable = save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Writes each snapshot in a worker made by :meth:`create_worker` (a thread or a process),
    so that training goes on meanwhile; a snapshot waits for the previous one to be written,
    and :meth:`finalize` for the last one.

    Args:
        savefun (callable): ``savefun(path, target, **kwds)``; :func:`save_npz` by default.
        kwds: keyword arguments for ``savefun``.
    """

    def __init__(self, savefun: Callable = save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds
        self._worker = None

    def __call__(self, filename, outdir, target):
        self.finalize()
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()

    def create_worker(self, filename: str, outdir: str, target, **kwds):
        """Returns an unstarted worker (with ``start`` and ``join``) that saves ``target``."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_worker')

    def finalize(self):
        if self._worker is not None:
            self._worker.join()
            self._worker = None


class ThreadWriter(StandardWriter):
    """A :class:`StandardWriter` whose workers are threads.

    Args:
        savefun (callable): ``savefun(path, target, **kwds)``; :func:`save_npz` by default.
        kwds: keyword arguments for ``savefun``.
    """

    def create_worker(self, filename, outdir, target, **kwds) -> threading.Thread:
        return threading.Thread(target=self.save, args=(filename, outdir, target, self._savefun),
                                kwargs=kwds)


class ProcessWriter(StandardWriter):
    """A :class:`StandardWriter` whose workers are processes (the target is copied into the
    process, so training may change it meanwhile).

    Args:
        savefun (callable): ``savefun(path, target, **kwds)``; :func:`save_npz` by default.
        kwds: keyword arguments for ``savefun``.
    """

    def create_worker(self, filename, outdir, target, **kwds) -> multiprocessing.Process:
        return multiprocessing.Process(
            target=self.save, args=(filename, outdir, target, self._savefun), kwargs=kwds)


class QueueWriter(Writer):
    """Writes the snapshots one after the other in a consumer (a thread or a process) fed by
    a queue; :meth:`create_queue` and :meth:`create_consumer` choose which.

    Args:
        savefun (callable): ``savefun(path, target)``; :func:`save_npz` by default.
        task (callable): called as ``task(filename, outdir, target)`` for each snapshot
            instead of a :class:`SimpleWriter` of ``savefun``.
    """

    def __init__(self, savefun: Callable = save_npz, task: Callable | None = None):
        super().__init__()
        self._task = SimpleWriter(savefun=savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._finalized = False

    def __call__(self, filename, outdir, target):
        self._queue.put((self._task, filename, outdir, target))

    def create_queue(self):
        """Returns the queue of the snapshots to write (``put``, ``get``, ``task_done``,
        ``join``)."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_queue')

    def create_consumer(self, q):
        """Returns an unstarted consumer (with ``start`` and ``join``) running
        :meth:`consume` on ``q``."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_consumer')

    def consume(self, q) -> None:
        """Runs the tasks of ``q`` until it gets None."""
        while True:
            item = q.get()
            try:
                if item is None:
                    return
                item[0](item[1], item[2], item[3])  # task(filename, outdir, target)
            finally:
                q.task_done()

    def _add_cleanup_hook(self, hook):
        # The task saves, so the task runs the hooks.
        add = getattr(self._task, '_add_cleanup_hook', None)
        if add is not None:
            add(hook)

    def finalize(self):
        if not self._finalized:
            self._finalized = True
            self._queue.put(None)
            self._queue.join()
            self._consumer.join()


class ThreadQueueWriter(QueueWriter):
    """A :class:`QueueWriter` whose consumer is a thread.

    Args:
        savefun (callable): ``savefun(path, target)``; :func:`save_npz` by default.
        task (callable): called as ``task(filename, outdir, target)`` for each snapshot.
    """

    def create_queue(self) -> queue.Queue:
        return queue.Queue()

    def create_consumer(self, q) -> threading.Thread:
        return threading.Thread(target=self.consume, args=(q,), daemon=True)


class ProcessQueueWriter(QueueWriter):
    """A :class:`QueueWriter` whose consumer is a process. The consumer starts with the
    writer, so the stale snapshots of ``snapshot(n_retains=...)`` are not removed by it.

    Args:
        savefun (callable): ``savefun(path, target)``; :func:`save_npz` by default.
        task (callable): called as ``task(filename, outdir, target)`` for each snapshot.
    """

    def create_queue(self) -> multiprocessing.JoinableQueue:
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q) -> multiprocessing.Process:
        return multiprocessing.Process(target=self.consume, args=(q,), daemon=True)


class EngineWriter(Writer):
    """Writes each snapshot in a function pushed to the dependency engine, so that training
    goes on meanwhile (not in Chainer).

    The functions write a variable of the writer: the snapshots are written one at a time, in
    the order they were taken, each followed by the post-save hooks (the removal of stale
    snapshots). :meth:`finalize`, which the trainer calls at the end of the training (also
    when it fails), waits for the last one. An error of a save is raised by the next snapshot
    or by :meth:`finalize`, whichever comes first; the snapshots taken between the failure and
    that point are not written.

    Args:
        savefun (callable): ``savefun(path, target, **kwds)``; :func:`save_npz` by default.
        engine (~framework.engine.Engine): the engine that runs the saves;
            :func:`framework.engine.get_engine()` when None.
        kwds: keyword arguments for ``savefun``.
    """

    def __init__(self, savefun: Callable = save_npz, engine: Engine | None = None, **kwds):
        super().__init__()
        if engine is None:
            engine = get_engine()
        elif not isinstance(engine, Engine):
            raise TypeError('EngineWriter: engine must be an Engine or None, but got '
                            f'{type(engine).__name__}')
        self._savefun = savefun
        self._kwds = kwds
        self._engine = engine
        self._var = engine.new_var()
        self._failed = False

    def __call__(self, filename, outdir, target):
        if self._failed:
            self.finalize()  # raises the error of the failed save

        def save(run_ctx):
            try:
                self.save(filename, outdir, target, self._savefun, **self._kwds)
            except Exception:
                self._failed = True
                raise

        self._engine.push(save, mutate_vars=(self._var,), name=f'EngineWriter({filename!r})')

    def finalize(self):
        self._failed = False
        self._engine.wait_for_var(self._var)
