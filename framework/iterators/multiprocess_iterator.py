"""MultiprocessIterator: loads the examples of the next batches with worker processes."""

from __future__ import annotations

import os
import warnings
import weakref

from framework.iterators._base import check_positive_int
from framework.iterators._example_seeds import fresh_seed
from framework.iterators._prefetch import PrefetchingIterator
from framework.iterators._worker_pool import WorkerPool


def _cpu_count() -> int:
    if hasattr(os, 'sched_getaffinity'):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class MultiprocessIterator(PrefetchingIterator):
    """Iterates over a dataset in minibatches, loading the examples with worker processes.

    The batches come in the order, and with the ``epoch_detail`` values, of a
    :class:`~framework.iterators.SerialIterator` with the same arguments; while the consumer
    works on one batch, the workers load the next ``n_prefetch``. Workers are forked where the
    platform allows it (the dataset is inherited, lambdas included) and started on the first
    batch. Before reading an example, a worker seeds Python's :mod:`random`, NumPy's global
    generator and :mod:`framework.random` from ``seed`` and the example's number in the
    iteration (over all epochs): random augmentations differ between examples and epochs,
    and with a ``seed`` they repeat from run to run, whichever worker reads an example and
    however many there are. The arrays of the examples come back through shared memory,
    other values pickled.

    Args:
        dataset: the dataset (``__len__`` and ``__getitem__``).
        batch_size (int): the number of examples of a batch.
        repeat (bool): whether to loop over the dataset forever.
        shuffle (bool): whether to draw a new random order for each epoch; None shuffles unless
            an ``order_sampler`` is given.
        n_processes (int): the number of worker processes; the number of CPUs by default.
        n_prefetch (int): the number of batches loaded ahead.
        shared_mem (int): the bytes of shared memory per example. None sizes it from the
            examples seen (the first batch is pickled, and the size grows with the largest
            example); an example that does not fit a given size travels pickled, with a
            warning.
        order_sampler (callable): draws the order of each epoch (``shuffle`` must be None).
        dataset_timeout (float): seconds after which a batch still loading raises a
            :class:`MultiprocessIterator.TimeoutWarning` (it keeps waiting); None never warns.
        maxtasksperchild (int): the number of tasks after which a worker is replaced by a
            fresh one (to free what it holds); None keeps workers for good.
        seed (int): the seed of the shuffling and of the workers' random draws (not in
            Chainer); None draws both from OS entropy.

    An error raised by the dataset in a worker is raised by ``next`` in the main process, of
    the same type, with the worker's traceback as its cause; a worker that dies is reported
    (:class:`RuntimeError`) and the workers are restarted by the next call. The batch that
    failed has not been consumed: asking again retries it. The workers stop on
    :meth:`finalize`, at the end of a ``with`` block, when the iterator is garbage collected,
    or at exit.
    """

    class TimeoutWarning(RuntimeWarning):
        """A batch takes longer than ``dataset_timeout`` to load."""

    _who = 'MultiprocessIterator'

    def __init__(self, dataset, batch_size: int, repeat: bool = True, shuffle=None,
                 n_processes: int | None = None, n_prefetch: int = 1,
                 shared_mem: int | None = None, order_sampler=None,
                 dataset_timeout: float | None = 30.0, maxtasksperchild: int | None = None,
                 seed: int | None = None):
        self.n_processes = (_cpu_count() if n_processes is None
                            else check_positive_int(self._who, 'n_processes', n_processes))
        if shared_mem is not None and (isinstance(shared_mem, bool)
                                       or not isinstance(shared_mem, int) or shared_mem < 0):
            raise ValueError(f'{self._who}: shared_mem must be a non-negative int (bytes per '
                             f'example) or None, but got {shared_mem!r}')
        if maxtasksperchild is not None:
            check_positive_int(self._who, 'maxtasksperchild', maxtasksperchild)
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._pool: WorkerPool | None = None
        self._finalizer = None
        self._warned_shared_mem = False
        self._worker_seed = fresh_seed() if seed is None else seed
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, seed, n_prefetch)

    def _mem_size(self) -> int:
        if self.shared_mem is not None:
            return self.shared_mem
        return self._pool.max_needed

    def _submit(self, indices, first):
        if self._pool is None or self._pool.closed:
            self._pool = WorkerPool(self.dataset, self._worker_seed, self.batch_size,
                                    self.n_processes, self.maxtasksperchild, self._who)
            if self._finalizer is not None:
                self._finalizer.detach()
            self._finalizer = weakref.finalize(self, self._pool.close)
        return self._pool.submit(indices, first, self._mem_size())

    def _collect(self, job) -> list:
        pool = self._pool
        batch = pool.wait(job, self.dataset_timeout, self.TimeoutWarning)
        if (self.shared_mem is not None and pool.max_needed > self.shared_mem
                and not self._warned_shared_mem):
            self._warned_shared_mem = True
            warnings.warn(f'{self._who}: shared_mem ({self.shared_mem} bytes per example) is '
                          f'too small for examples of {pool.max_needed} bytes; their arrays '
                          'are pickled instead. Pass a larger shared_mem, or None to size it '
                          'automatically', UserWarning, stacklevel=3)
        return batch

    def _discard(self, job) -> None:
        if self._pool is not None:
            self._pool.discard(job)

    def _shutdown(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._pool = None
