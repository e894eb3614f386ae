"""The base class of dataset iterators (Chainer's ``chainer.dataset.Iterator``)."""

from __future__ import annotations


class Iterator:
    """The base class of dataset iterators.

    An iterator yields minibatches, each a list of examples, and exposes ``batch_size``,
    ``epoch`` (sweeps completed), ``epoch_detail`` (e.g. 2.5 in the middle of the third
    sweep), ``previous_epoch_detail`` (None before the first batch) and ``is_new_epoch``
    (True when the last batch completed a sweep). It saves and restores its position with
    ``serialize`` and releases what it holds with :meth:`finalize`; it is a context manager
    that finalizes on exit.
    """

    def __iter__(self):
        return self

    def __next__(self):
        """Returns the next batch; raises :class:`StopIteration` at the end."""
        raise NotImplementedError

    def next(self):
        """The same as :meth:`__next__` (Chainer's Python 2 alias)."""
        return self.__next__()

    def finalize(self) -> None:
        """Releases the resources (threads, processes, shared memory) of the iterator."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer) -> None:
        """Saves or restores the state that changes over the iteration."""
