"""The inverse of ``zip`` for iterators: one lazy iterator per position of the tuples."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Iterator
from typing import Any

_END = object()


class _Branch:
    """The iterator of one position; values drawn for the other positions wait in buffers.

    All branches of one :func:`unzip` share the source iterator and the list of buffers. A
    branch that is garbage-collected sets its buffer to :obj:`None`, so that values of its
    position are no longer kept for it.
    """

    def __init__(self, source: Iterator[tuple], buffers: list, index: int):
        self._source = source
        self._buffers = buffers
        self._index = index

    def __iter__(self) -> _Branch:
        return self

    def __next__(self) -> Any:
        buffer = self._buffers[self._index]
        if not buffer:
            values = next(self._source)
            if len(values) != len(self._buffers):
                raise ValueError(f'unzip: every tuple must have {len(self._buffers)} values, '
                                 f'as the first one, but got a tuple of {len(values)}')
            for buf, value in zip(self._buffers, values):
                if buf is not None:
                    buf.append(value)
        return buffer.popleft()

    def __del__(self):
        self._buffers[self._index] = None


def unzip(iterable: Iterable[tuple]) -> tuple[Iterator, ...]:
    """Converts an iterable of tuples into a tuple of iterators, the inverse of :func:`zip`.

    Only the first tuple is drawn when this is called; the rest are drawn as the returned
    iterators are advanced, so ``iterable`` may be infinite. A value drawn for one position
    is kept until the iterator of that position returns it, or is deleted.

    >>> ints, strs = unzip([(0, 'a'), (1, 'b'), (2, 'c')])
    >>> next(ints), next(ints), next(strs)
    (0, 1, 'a')

    Args:
        iterable (iterable of tuples): Tuples of one length.

    Returns:
        tuple of iterators: The :math:`i`-th iterator yields the :math:`i`-th value of every
        tuple. An empty ``iterable`` gives an empty tuple.

    Raises:
        ValueError: (while iterating) A tuple is not as long as the first one.
    """
    source = iter(iterable)
    first = next(source, _END)
    if first is _END:
        return ()
    buffers = [collections.deque((value,)) for value in first]
    return tuple(_Branch(source, buffers, index) for index in range(len(buffers)))
