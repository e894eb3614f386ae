"""create_multi_node_iterator: the batches of one process's iterator, on every process."""

from __future__ import annotations

from framework.dataset.iterator import Iterator


class _MultiNodeIterator(Iterator):
    """Broadcasts each batch of the master's iterator (see :func:`create_multi_node_iterator`)."""

    _STATE = ('batch_size', 'epoch', 'epoch_detail', 'previous_epoch_detail', 'is_new_epoch')

    def __init__(self, actual_iterator, communicator, rank_master: int):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self._bcast_state()

    @property
    def _is_master(self) -> bool:
        return self.communicator.rank == self.rank_master

    def _bcast_state(self, batch=None):
        """Broadcasts ``batch`` with the master's position; returns the batch."""
        message = None
        if self._is_master:
            message = batch, {name: getattr(self.actual_iterator, name, None)
                              for name in self._STATE}
        batch, self._state = self.communicator.bcast_obj(message, root=self.rank_master)
        return batch

    def __next__(self):
        batch = None
        if self._is_master:
            try:
                batch = next(self.actual_iterator)
            except StopIteration:
                batch = StopIteration
        batch = self._bcast_state(batch)
        if batch is StopIteration:
            raise StopIteration
        return batch

    def __getattr__(self, name):
        if name in self._STATE:
            return self.__dict__['_state'][name]
        raise AttributeError(f'{type(self).__name__} has no attribute {name!r}')

    def reset(self) -> None:
        """Resets the master's iterator (every process must call it)."""
        if self._is_master:
            self.actual_iterator.reset()
        self._bcast_state()

    def serialize(self, serializer) -> None:
        """Saves or restores the master's iterator; the others hold no state of their own."""
        if self._is_master:
            self.actual_iterator.serialize(serializer)

    def finalize(self) -> None:
        """Finalizes the master's iterator."""
        if self._is_master:
            self.actual_iterator.finalize()


def create_multi_node_iterator(actual_iterator, communicator, rank_master: int = 0):
    """Makes every process see the batches of the master process's iterator.

    The master draws each batch from ``actual_iterator`` and broadcasts it (pickled) with the
    iterator's position (``epoch``, ``epoch_detail``, ``is_new_epoch``, ...), so that the
    processes of a model-parallel job work on the same examples.

    Args:
        actual_iterator (~framework.dataset.Iterator): the iterator, on the master; ignored
            (may be None) elsewhere.
        communicator (MpiCommunicatorBase): the processes.
        rank_master: the rank whose iterator is used.

    Returns:
        ~framework.dataset.Iterator: an iterator that yields the same batches everywhere.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
