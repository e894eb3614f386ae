"""GetterDataset: a sliceable dataset defined by getters, one per group of values."""

from __future__ import annotations

from collections.abc import Callable

from framework.datasets.sliceable.sliceable_dataset import (
    SliceableDataset,
    as_key_indices,
    is_iterable,
)


class GetterDataset(SliceableDataset):
    """A sliceable dataset made of getters.

    Each getter takes an index and returns one value or a tuple of values; a slice that asks
    only for some keys calls only the getters that produce them, once per example::

        class LabeledImages(GetterDataset):
            def __init__(self, paths, labels):
                super().__init__()
                self.paths, self.labels = paths, labels
                self.add_getter('img', self.get_image)
                self.add_getter('label', lambda i: self.labels[i])

            def __len__(self):
                return len(self.paths)

            def get_image(self, i):
                return read_image(self.paths[i])

        labels = dataset.slice[:, 'label']     # decodes no image

    A subclass defines ``__len__``, calls ``super().__init__()`` and registers its getters.
    """

    def __init__(self):
        # One (name, getter position, position in the getter's tuple or None) per key.
        self._keys: list[tuple] = []
        self._getters: list[Callable] = []
        self._return_tuple = True

    def __len__(self) -> int:
        raise NotImplementedError

    @property
    def keys(self):
        """The names of the values: a tuple, or a single name after ``keys = name``."""
        if self._return_tuple:
            return tuple(key for key, _, _ in self._keys)
        return self._keys[0][0]

    @keys.setter
    def keys(self, keys):
        """Keeps only ``keys`` (names or positions), in that order; a single key makes the
        examples single values."""
        self._keys = [self._keys[k] for k in as_key_indices(keys, self.keys)]
        self._return_tuple = is_iterable(keys)

    def add_getter(self, keys, getter: Callable) -> None:
        """Registers a getter.

        Args:
            keys (str, tuple of str or int): the name of the value the getter returns, the
                names of the values of the tuple it returns, or their number (unnamed keys;
                1 stands for a single value).
            getter: ``getter(index)`` returns the value(s) of the example ``index``.
        """
        if isinstance(keys, int) and not isinstance(keys, bool):
            keys = None if keys == 1 else (None,) * keys
        self._getters.append(getter)
        getter_index = len(self._getters) - 1
        if is_iterable(keys):
            for position, key in enumerate(keys):
                self._keys.append((key, getter_index, position))
        else:
            self._keys.append((keys, getter_index, None))

    def get_example_by_keys(self, index, key_indices):
        cache = {}
        values = []
        for key_index in key_indices:
            _, getter_index, position = self._keys[key_index]
            if getter_index not in cache:
                cache[getter_index] = self._getters[getter_index](index)
            value = cache[getter_index]
            values.append(value if position is None else value[position])
        return tuple(values)
