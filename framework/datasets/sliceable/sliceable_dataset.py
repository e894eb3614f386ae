"""SliceableDataset: datasets whose examples are tuples of named values, fetched by name.

``dataset.slice[indices, keys]`` is a view holding only the examples and the values asked
for; reading it computes only those values (for a :class:`GetterDataset`, only the getters
that produce them), so the annotations of an image dataset can be read without decoding a
single image. ChainerCV's ``chainer_experimental.datasets.sliceable``.
"""

from __future__ import annotations

import numbers

import numpy

from framework.dataset.dataset_mixin import DatasetMixin, normalize_index


def is_iterable(x) -> bool:
    """Whether ``x`` is a sequence of keys (a string is a single key)."""
    return not isinstance(x, str) and hasattr(x, '__iter__')


def as_tuple(x) -> tuple:
    return tuple(x) if is_iterable(x) else (x,)


def _bool_to_indices(indices, length: int, what: str):
    """The positions of the True values when ``indices`` is a mask, else ``indices``."""
    if len(indices) == 0 or not all(isinstance(i, (bool, numpy.bool_)) for i in indices):
        return indices
    if len(indices) != length:
        raise ValueError(f'slice: a boolean mask over the {what} must have length {length}, '
                         f'but got length {len(indices)}')
    return [i for i, flag in enumerate(indices) if flag]


def as_key_indices(keys, key_names) -> list[int]:
    """The positions in ``key_names`` of ``keys`` (names, positions or a boolean mask)."""
    key_names = as_tuple(key_names)
    result = []
    for key in _bool_to_indices(as_tuple(keys), len(key_names), 'keys'):
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            index = int(key) + len(key_names) if key < 0 else int(key)
            if not 0 <= index < len(key_names):
                raise IndexError(f'slice: key index {key} is out of bounds for the '
                                 f'{len(key_names)} keys {key_names}')
        else:
            try:
                index = key_names.index(key)
            except ValueError:
                raise KeyError(f'slice: no key {key!r} among the keys {key_names}') from None
        result.append(index)
    return result


class SliceableDataset(DatasetMixin):
    """A dataset whose examples are tuples of named values (or single values).

    A subclass defines ``__len__``, the :attr:`keys` property and
    :meth:`get_example_by_keys`. ``get_example`` returns the tuple of all the values (or the
    value alone when :attr:`keys` is a single key rather than a tuple).
    """

    @property
    def keys(self):
        """The names of the values of an example: a tuple of names (None for an unnamed one),
        or a single name when an example is a single value."""
        raise NotImplementedError

    def get_example_by_keys(self, index: int, key_indices: tuple[int, ...]) -> tuple:
        """The values at ``key_indices`` (positions in :attr:`keys`) of example ``index``.

        Args:
            index: the index of the example, in ``[0, len(self))``.
            key_indices: the positions of the keys asked for.

        Returns:
            tuple: the values, in the order of ``key_indices``.
        """
        raise NotImplementedError

    def get_example(self, i):
        i = normalize_index(type(self).__name__, i, len(self))
        if isinstance(self.keys, tuple):
            return self.get_example_by_keys(i, tuple(range(len(self.keys))))
        return self.get_example_by_keys(i, (0,))[0]

    @property
    def slice(self) -> SliceHelper:
        """``dataset.slice[indices]`` or ``dataset.slice[indices, keys]``: a lazy view.

        ``indices`` is a slice, a sequence of indices or a boolean mask; ``keys`` a key (name
        or position: the view's examples are then single values) or a sequence of them (its
        examples are tuples).
        """
        return SliceHelper(self)

    def __iter__(self):
        return (self.get_example(i) for i in range(len(self)))


class SliceHelper:
    """What :attr:`SliceableDataset.slice` returns; indexing it makes a :class:`SlicedDataset`."""

    def __init__(self, dataset: SliceableDataset):
        self._dataset = dataset

    def __getitem__(self, args) -> SlicedDataset:
        if isinstance(args, tuple):
            if len(args) != 2:
                raise IndexError('slice: expected dataset.slice[indices] or '
                                 f'dataset.slice[indices, keys], but got {len(args)} items')
            indices, keys = args
        else:
            indices, keys = args, self._dataset.keys
        if not isinstance(indices, slice):
            indices = _bool_to_indices(list(indices), len(self._dataset), 'examples')
        key_indices = as_key_indices(keys, self._dataset.keys)
        if is_iterable(keys):
            return SlicedDataset(self._dataset, indices, tuple(key_indices))
        return SlicedDataset(self._dataset, indices, key_indices[0])


class SlicedDataset(SliceableDataset):
    """A view of some examples and some values of a :class:`SliceableDataset`.

    Args:
        dataset: the dataset viewed.
        indices: a slice or a sequence of indices of ``dataset``.
        key_indices: a tuple of positions in ``dataset.keys`` (examples are tuples) or one
            position (examples are single values).
    """

    def __init__(self, dataset: SliceableDataset, indices, key_indices):
        self._dataset = dataset
        if isinstance(indices, slice):
            indices = range(*indices.indices(len(dataset)))
        self._indices = indices
        self._key_indices = key_indices

    def __len__(self) -> int:
        return len(self._indices)

    @property
    def keys(self):
        keys = as_tuple(self._dataset.keys)
        if isinstance(self._key_indices, tuple):
            return tuple(keys[k] for k in self._key_indices)
        return keys[self._key_indices]

    def get_example_by_keys(self, index, key_indices):
        own = as_tuple(self._key_indices)
        return self._dataset.get_example_by_keys(
            self._indices[index], tuple(own[k] for k in key_indices))
