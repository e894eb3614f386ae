"""MultithreadIterator: loads the examples of the next batches with a pool of threads."""

from __future__ import annotations

import concurrent.futures

from framework.iterators._base import check_positive_int
from framework.iterators._prefetch import PrefetchingIterator


class MultithreadIterator(PrefetchingIterator):
    """Iterates over a dataset in minibatches, loading the examples with threads.

    The batches come in the order, and with the ``epoch_detail`` values, of a
    :class:`~framework.iterators.SerialIterator` with the same arguments; while the consumer
    works on one batch, the threads load the next ``n_prefetch``. Threads suit datasets whose
    reading releases the GIL (file reads, image decoding in C); for Python-heavy transforms
    use :class:`~framework.iterators.MultiprocessIterator`.

    Args:
        dataset: the dataset (``__len__`` and ``__getitem__``, safe to call from threads).
        batch_size (int): the number of examples of a batch.
        repeat (bool): whether to loop over the dataset forever.
        shuffle (bool): whether to draw a new random order for each epoch; None shuffles unless
            an ``order_sampler`` is given.
        n_threads (int): the number of threads.
        order_sampler (callable): draws the order of each epoch (``shuffle`` must be None).
        n_prefetch (int): the number of batches loaded ahead (not in Chainer, which loads one).
        seed (int): the seed of the shuffling (not in Chainer).

    An error raised by the dataset is raised by ``next`` with its traceback; the batch can be
    asked for again. The threads stop on :meth:`finalize` (or at the end of a ``with`` block).
    """

    _who = 'MultithreadIterator'

    def __init__(self, dataset, batch_size: int, repeat: bool = True, shuffle=None,
                 n_threads: int = 1, order_sampler=None, n_prefetch: int = 1,
                 seed: int | None = None):
        self.n_threads = check_positive_int(self._who, 'n_threads', n_threads)
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, seed, n_prefetch)

    def _submit(self, indices):
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                self.n_threads, thread_name_prefix='MultithreadIterator')
        return [self._executor.submit(self.dataset.__getitem__, index) for index in indices]

    def _collect(self, futures) -> list:
        return [future.result() for future in futures]

    def _discard(self, futures) -> None:
        for future in futures:
            future.cancel()

    def _shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
