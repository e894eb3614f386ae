"""ConcatenatedDataset: datasets one after the other."""

from __future__ import annotations

import bisect
import itertools

from framework.dataset.dataset_mixin import DatasetMixin, normalize_index


class ConcatenatedDataset(DatasetMixin):
    """The examples of several datasets, one dataset after the other.

    A dataset of 10 examples and one of 20 make one of 30; example 12 is the third of the
    second dataset. Negative indices count from the end.

    Args:
        datasets: the datasets (``__len__`` and ``__getitem__``).
    """

    def __init__(self, *datasets):
        self._datasets = datasets
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        i = normalize_index('ConcatenatedDataset', i, len(self))
        position = bisect.bisect_right(self._ends, i)
        start = self._ends[position - 1] if position else 0
        return self._datasets[position][i - start]
