"""SerialIterator: reads the examples one after the other in the calling thread."""

from __future__ import annotations

from framework.iterators._base import BatchIterator, advance


class SerialIterator(BatchIterator):
    """Iterates over a dataset in minibatches, reading the examples in the calling thread.

    Each epoch visits every example once, in the order of the indices or in a shuffled order.
    With ``repeat`` the iteration never ends and a batch that crosses the end of an epoch is
    completed with the first examples of the next; without it, the last batch of the epoch may
    be smaller and the next call raises :class:`StopIteration`.

    Args:
        dataset: the dataset (anything with ``__len__`` and ``__getitem__``).
        batch_size (int): the number of examples of a batch.
        repeat (bool): whether to loop over the dataset forever.
        shuffle (bool): whether to draw a new random order for each epoch. None (the default)
            shuffles unless an ``order_sampler`` is given.
        order_sampler (callable): ``order_sampler(current_order, current_position)`` returns
            the order of the next epoch (see :class:`~framework.iterators.OrderSampler`);
            ``shuffle`` must then be None.
        seed (int): the seed of the shuffling (not in Chainer); by default the orders come
            from a generator seeded from NumPy's global one.

    A snapshot made by :meth:`serialize` in the middle of an epoch, loaded into a new iterator
    over the same dataset, gives the batches the original would have given, in this epoch and
    the later ones.
    """

    _who = 'SerialIterator'

    def __init__(self, dataset, batch_size: int, repeat: bool = True, shuffle=None,
                 order_sampler=None, seed: int | None = None):
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, seed)

    def __next__(self) -> list:
        state, indices = advance(self._state, self.batch_size, self._repeat,
                                 self.order_sampler, len(self.dataset))
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        if indices is None:
            raise StopIteration
        return [self.dataset[index] for index in indices]
