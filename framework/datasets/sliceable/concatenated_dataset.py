"""The sliceable ConcatenatedDataset: datasets with the same keys, one after the other."""

from __future__ import annotations

import bisect
import itertools

from framework.datasets.sliceable.sliceable_dataset import SliceableDataset


class ConcatenatedDataset(SliceableDataset):
    """A sliceable version of :class:`framework.datasets.ConcatenatedDataset`.

    Args:
        datasets: sliceable datasets with the same keys.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('ConcatenatedDataset: at least one dataset is required')
        self._datasets = datasets
        self._keys = datasets[0].keys
        for i, dataset in enumerate(datasets[1:], 1):
            if dataset.keys != self._keys:
                raise ValueError('ConcatenatedDataset: all datasets must have the same keys, '
                                 f'but dataset {i} has {dataset.keys} and the first '
                                 f'{self._keys}')
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self) -> int:
        return self._ends[-1]

    @property
    def keys(self):
        return self._keys

    def get_example_by_keys(self, index, key_indices):
        if not 0 <= index < len(self):
            raise IndexError(f'ConcatenatedDataset: index {index} is out of range for a '
                             f'dataset of length {len(self)}')
        position = bisect.bisect_right(self._ends, index)
        start = self._ends[position - 1] if position else 0
        return self._datasets[position].get_example_by_keys(index - start, key_indices)
