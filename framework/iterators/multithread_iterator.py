"""MultithreadIterator: loads the next batches with threads, a pool of its own or the engine's."""

from __future__ import annotations

import concurrent.futures

from framework.engine import Engine
from framework.iterators._base import check_positive_int
from framework.iterators._prefetch import PrefetchingIterator


class MultithreadIterator(PrefetchingIterator):
    """Iterates over a dataset in minibatches, loading the examples with threads.

    The batches come in the order, and with the ``epoch_detail`` values, of a
    :class:`~framework.iterators.SerialIterator` with the same arguments; while the consumer
    works on one batch, the threads load the next ``n_prefetch``. Threads suit datasets whose
    reading releases the GIL (file reads, image decoding in C); for Python-heavy transforms
    use :class:`~framework.iterators.MultiprocessIterator`.

    The threads are a pool of ``n_threads`` of the iterator's own, as in Chainer, or, with
    ``engine``, the workers of the dependency engine: each batch is then read by one function
    pushed to the engine, which writes a variable of the iterator, so that the batches are read
    one after the other in the order of the iteration (and the examples of a batch in order, as
    a :class:`~framework.iterators.SerialIterator` reads them) while the training goes on.
    Loading then shares the engine's workers with the other work pushed to it instead of adding
    threads. Under a :class:`~framework.engine.NaiveEngine` a batch is read when it is
    scheduled, in the calling thread, as the debugging engine does with everything.

    Args:
        dataset: the dataset (``__len__`` and ``__getitem__``, safe to call from threads).
        batch_size (int): the number of examples of a batch.
        repeat (bool): whether to loop over the dataset forever.
        shuffle (bool): whether to draw a new random order for each epoch; None shuffles unless
            an ``order_sampler`` is given.
        n_threads (int): the number of threads of the iterator's pool; must be 1 (the
            default) with ``engine``.
        order_sampler (callable): draws the order of each epoch (``shuffle`` must be None).
        n_prefetch (int): the number of batches loaded ahead (not in Chainer, which loads one).
        seed (int): the seed of the shuffling (not in Chainer).
        engine (~framework.engine.Engine): the engine whose workers read the batches, e.g.
            :func:`framework.engine.get_engine()`; None (the default) for a pool of the
            iterator's own (not in Chainer).

    An error raised by the dataset is raised by ``next`` with its traceback; the batch can be
    asked for again. :meth:`finalize` (or the end of a ``with`` block) waits for the batches
    being read and stops the pool; :meth:`reset` then starts the iteration again.
    """

    _who = 'MultithreadIterator'

    def __init__(self, dataset, batch_size: int, repeat: bool = True, shuffle=None,
                 n_threads: int = 1, order_sampler=None, n_prefetch: int = 1,
                 seed: int | None = None, engine: Engine | None = None):
        self.n_threads = check_positive_int(self._who, 'n_threads', n_threads)
        if engine is None:
            self._loader = _PoolLoader(self.n_threads)
        elif not isinstance(engine, Engine):
            raise TypeError(f'{self._who}: engine must be an Engine or None, but got '
                            f'{type(engine).__name__}')
        elif self.n_threads != 1:
            raise ValueError(f'{self._who}: n_threads must be 1 when an engine is given (its '
                             f'workers read the batches), but got {self.n_threads}')
        else:
            self._loader = _EngineLoader(engine, f'{self._who}: reading a batch')
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, seed, n_prefetch)

    def _submit(self, indices, first):
        return self._loader.submit(self.dataset, indices)

    def _collect(self, handle) -> list:
        return self._loader.collect(handle)

    def _discard(self, handle) -> None:
        self._loader.discard(handle)

    def _shutdown(self) -> None:
        self._loader.shutdown()

    def _reopen(self) -> None:
        # As in Chainer, reset() makes a finalized MultithreadIterator usable again: the pool
        # is made again on the next batch.
        self._finalized = False


class _PoolLoader:
    """Reads the examples of each batch with a pool of threads, made on the first batch."""

    def __init__(self, n_threads: int):
        self._n_threads = n_threads
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None

    def submit(self, dataset, indices) -> list[concurrent.futures.Future]:
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                self._n_threads, thread_name_prefix='MultithreadIterator')
        return [self._executor.submit(dataset.__getitem__, index) for index in indices]

    def collect(self, futures) -> list:
        return [future.result() for future in futures]

    def discard(self, futures) -> None:
        for future in futures:
            future.cancel()

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class _EngineBatch:
    """A batch read by an engine function: the variable the function writes, and what it
    leaves there (the examples, or the error of the dataset)."""

    __slots__ = ('var', 'examples', 'error', 'discarded')

    def __init__(self, var):
        self.var = var
        self.examples: list | None = None
        self.error: Exception | None = None
        self.discarded = False


class _EngineLoader:
    """Reads each batch in a function pushed to an engine.

    The function writes the loader's variable, so the batches are read one at a time in push
    order, and the batch's own, which :meth:`collect` waits for (waiting for the loader's would
    wait for the batches pushed after it too). It keeps an error of the dataset in the batch
    rather than raising it into the engine: a batch given up (by a reset or a load) must leave
    no error behind for an unrelated wait of the engine.
    """

    def __init__(self, engine: Engine, name: str):
        self._engine = engine
        self._var = engine.new_var()
        self._name = name

    def submit(self, dataset, indices) -> _EngineBatch:
        batch = _EngineBatch(self._engine.new_var())

        def read(run_ctx):
            if batch.discarded:
                return
            try:
                batch.examples = [dataset[index] for index in indices]
            except Exception as error:
                batch.error = error

        self._engine.push(read, mutate_vars=(self._var, batch.var), name=self._name)
        return batch

    def collect(self, batch: _EngineBatch) -> list:
        self._engine.wait_for_var(batch.var)
        if batch.error is not None:
            raise batch.error
        return batch.examples

    def discard(self, batch: _EngineBatch) -> None:
        batch.discarded = True

    def shutdown(self) -> None:
        self._engine.wait_for_var(self._var)
