"""Starting a pass over an iterator from its beginning."""

from __future__ import annotations

import copy


def rewind(iterator):
    """Returns ``iterator`` reset to its first batch, or a copy of it if it cannot be reset.

    An iterator with a ``reset`` method (:class:`~framework.iterators.SerialIterator`...) is
    reset and returned; anything else (a list of batches, say) is copied with
    :func:`copy.copy`, as ChainerCV's extensions do, so that the next pass starts afresh too.
    """
    if hasattr(iterator, 'reset'):
        iterator.reset()
        return iterator
    return copy.copy(iterator)
