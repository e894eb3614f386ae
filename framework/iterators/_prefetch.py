"""The pipeline shared by the iterators that load batches ahead of the consumer.

The main thread decides which examples each batch holds (the indices, and the order of each
epoch) on a copy of the iterator's state that runs ahead, and hands the batches to workers
(threads or processes) that load them in the background. Every batch in flight carries the
state the iterator reaches once the consumer has taken it; the iterator's own state (what
``epoch_detail`` reports and ``serialize`` saves) moves only then. A snapshot therefore records
what the consumer has seen, never what the workers have already drawn, and loading one, or
resetting, drops the batches in flight and starts again from the restored state.
"""

from __future__ import annotations

import collections
import copy

import numpy

from framework.iterators._base import (
    BatchIterator,
    advance,
    check_positive_int,
    examples_drawn,
)
from framework.serializers.serializer import Deserializer

_InFlight = collections.namedtuple('_InFlight', ('handle', 'state', 'order_sampler'))


class PrefetchingIterator(BatchIterator):
    """A :class:`BatchIterator` that keeps ``n_prefetch`` batches loading in the background.

    Subclasses implement :meth:`_submit`, :meth:`_collect`, :meth:`_discard` and
    :meth:`_shutdown`.
    """

    def __init__(self, dataset, batch_size, repeat, shuffle, order_sampler, seed,
                 n_prefetch: int):
        self.n_prefetch = check_positive_int(self._who, 'n_prefetch', n_prefetch)
        self._pending: collections.deque[_InFlight] = collections.deque()
        self._finalized = False
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, seed)
        self._restart()

    # What the subclasses implement.

    def _submit(self, indices: numpy.ndarray, first: int):
        """Starts loading the examples at ``indices``; returns a handle for :meth:`_collect`.

        ``first`` is the number of examples the iteration drew before this batch, over all
        epochs; worker processes seed the random draws of each example from its number.
        """
        raise NotImplementedError

    def _collect(self, handle) -> list:
        """Waits for the batch of ``handle`` and returns it (a list of examples)."""
        raise NotImplementedError

    def _discard(self, handle) -> None:
        """Gives up the batch of ``handle`` (its result, when it comes, is dropped)."""
        raise NotImplementedError

    def _shutdown(self) -> None:
        """Stops the workers and frees what they hold."""
        raise NotImplementedError

    # The pipeline.

    def _restart(self) -> None:
        """Drops the batches in flight; the next ones start from the iterator's own state."""
        self._discard_pending()
        self._ahead_state = self._state
        self._ahead_sampler = _copy_sampler(self.order_sampler)
        self._ahead_done = False

    def _discard_pending(self) -> None:
        """Gives up the batches in flight."""
        while self._pending:
            item = self._pending.popleft()
            if item.handle is not None:
                self._discard(item.handle)

    def _fill(self, n: int) -> None:
        """Schedules batches until ``n`` are in flight (or the iteration is over)."""
        while len(self._pending) < n and not self._ahead_done:
            before = self._ahead_state
            state, indices = advance(before, self.batch_size, self._repeat,
                                     self._ahead_sampler, len(self.dataset))
            sampler = None
            if state.epoch != before.epoch and state.order is not None:
                # The sampler drew the order of a new epoch: the consumer's sampler becomes
                # this copy when it takes the batch.
                sampler = _copy_sampler(self._ahead_sampler)
            handle = None if indices is None else self._submit(
                indices, examples_drawn(before, len(self.dataset)))
            self._pending.append(_InFlight(handle, state, sampler))
            self._ahead_state = state
            self._ahead_done = indices is None

    def __next__(self) -> list:
        if self._finalized:
            raise RuntimeError(f'{self._who}: the iterator has been finalized')
        self._fill(1)
        if not self._pending:
            # The iteration is over and the consumer has been told so already.
            self._previous_epoch_detail = self.epoch_detail
            raise StopIteration
        item = self._pending.popleft()
        # Keep the workers busy with the next batches while the consumer uses this one.
        try:
            self._fill(self.n_prefetch)
        except BaseException:
            self._pending.appendleft(item)
            raise
        batch = None
        if item.handle is not None:
            try:
                batch = self._collect(item.handle)
            except BaseException:
                # The consumer has not seen this batch: a retry starts from it again.
                self._restart()
                raise
        self._previous_epoch_detail = self.epoch_detail
        self._state = item.state
        if item.order_sampler is not None:
            self.order_sampler = item.order_sampler
        if batch is None:
            raise StopIteration
        return batch

    def reset(self) -> None:
        if self._finalized:
            self._reopen()
        super().reset()
        self._restart()

    def _reopen(self) -> None:
        """Makes a finalized iterator usable again, for :meth:`reset`. Not supported here, as
        in Chainer's ``MultiprocessIterator``; subclasses whose workers start again on demand
        override it."""
        raise NotImplementedError(f'{self._who}: cannot reset a finalized iterator')

    def serialize(self, serializer) -> None:
        before = self._state
        super().serialize(serializer)
        # A deserializer has restored a state (the sampler's too, perhaps): load from there.
        if isinstance(serializer, Deserializer) or not _same_state(before, self._state):
            self._restart()

    def finalize(self) -> None:
        """Gives up the batches in flight and stops the workers once they are done with them;
        the iterator cannot be used afterwards. Calling it again is a no-op."""
        if self._finalized:
            return
        self._finalized = True
        self._discard_pending()
        self._shutdown()


def _copy_sampler(sampler):
    """A copy of a sampler whose state :meth:`serialize` saves; other samplers (functions,
    objects without a saved state) are shared as they are, as in Chainer."""
    if hasattr(sampler, 'serialize'):
        return copy.deepcopy(sampler)
    return sampler


def _same_state(a, b) -> bool:
    if a[:3] != b[:3]:
        return False
    if a.order is None or b.order is None:
        return a.order is b.order
    return numpy.array_equal(a.order, b.order)
