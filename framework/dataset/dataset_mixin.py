"""DatasetMixin: indexing by int, slice and index arrays from a ``get_example`` method."""

from __future__ import annotations

import numbers

import numpy


class DatasetMixin:
    """Gives a dataset Chainer's indexing from ``__len__`` and ``get_example``.

    ``dataset[i]`` is ``get_example(i)``; ``dataset[2:5]``, ``dataset[[4, 0]]`` and
    ``dataset[numpy.arange(3)]`` are lists of examples. A subclass defines ``__len__`` and
    ``get_example``, which raises :class:`IndexError` for an index out of range.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            return [self.get_example(i) for i in index]
        return self.get_example(index)

    def __len__(self) -> int:
        """The number of examples."""
        raise NotImplementedError

    def get_example(self, i: int):
        """The ``i``-th example; raises :class:`IndexError` when ``i`` is out of range."""
        raise NotImplementedError


def normalize_index(who: str, i, length: int) -> int:
    """``i`` (negative counts from the end) as an index in ``[0, length)``, or an IndexError."""
    if isinstance(i, bool) or not isinstance(i, numbers.Integral):
        raise TypeError(f'{who}: an index must be an int, but got {type(i).__name__}')
    j = int(i) + length if i < 0 else int(i)
    if not 0 <= j < length:
        raise IndexError(f'{who}: index {int(i)} is out of range for a dataset of length '
                         f'{length}')
    return j
