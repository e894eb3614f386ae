"""The sliceable TupleDataset: columns side by side, each named or not."""

from __future__ import annotations

from framework.datasets.sliceable.sliceable_dataset import SliceableDataset, as_tuple


class TupleDataset(SliceableDataset):
    """A sliceable version of :class:`framework.datasets.TupleDataset`.

    ::

        dataset = TupleDataset(('img', imgs), ('label', labels))
        dataset.keys                 # ('img', 'label')
        dataset.slice[:, 'label']    # the labels only

    Args:
        datasets: the columns, all of the same length. Each is a sliceable dataset (its keys
            become keys of this one), a ``(name, values)`` pair, or values (a list or an
            array, an unnamed key).
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('TupleDataset: at least one dataset is required')
        self._length = None
        # One (name, dataset position, key position in that dataset or None) per key.
        self._keys: list[tuple] = []
        self._datasets = []
        for dataset in datasets:
            position = len(self._datasets)
            if isinstance(dataset, SliceableDataset):
                for key_index, key in enumerate(as_tuple(dataset.keys)):
                    self._keys.append((key, position, key_index))
            else:
                key = None
                if isinstance(dataset, tuple):
                    key, dataset = dataset
                self._keys.append((key, position, None))
            self._datasets.append(dataset)
            if self._length is None:
                self._length = len(dataset)
            elif len(dataset) != self._length:
                raise ValueError('TupleDataset: all datasets must have the same length, but '
                                 f'dataset {position} has length {len(dataset)} and the '
                                 f'first {self._length}')

    def __len__(self) -> int:
        return self._length

    @property
    def keys(self) -> tuple:
        return tuple(key for key, _, _ in self._keys)

    def get_example_by_keys(self, index, key_indices):
        wanted: dict[int, list | None] = {}
        for key_index in key_indices:
            _, position, inner = self._keys[key_index]
            if inner is None:
                wanted[position] = None
            else:
                wanted.setdefault(position, []).append(inner)
        values = {}
        for position, inners in wanted.items():
            dataset = self._datasets[position]
            if inners is None:
                values[position, None] = dataset[index]
            else:
                inners = tuple(dict.fromkeys(inners))
                for inner, value in zip(inners, dataset.get_example_by_keys(index, inners)):
                    values[position, inner] = value
        return tuple(values[self._keys[k][1:]] for k in key_indices)
