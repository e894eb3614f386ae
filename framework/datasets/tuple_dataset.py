"""TupleDataset and DictDataset: equal-length datasets zipped into tuples or dicts."""

from __future__ import annotations

import numpy


def _is_batch_index(index) -> bool:
    return isinstance(index, (slice, list, numpy.ndarray))


def _check_lengths(who: str, named: list[tuple]) -> int:
    if not named:
        raise ValueError(f'{who}: no datasets are given')
    length = len(named[0][1])
    for name, dataset in named:
        if len(dataset) != length:
            raise ValueError(f'{who}: all datasets must have the same length, but dataset '
                             f'{name!r} has length {len(dataset)} and the first {length}')
    return length


class TupleDataset:
    """Zips equal-length datasets: the ``i``-th example is ``(d1[i], d2[i], ...)``.

    ``TupleDataset([8, 0, 5], [3, 1, 7])`` holds ``(8, 3), (0, 1), (5, 7)``. Indexing by a
    slice, a list or an integer array returns a list of tuples.

    Args:
        datasets: the datasets (``__len__`` and ``__getitem__``), all of the same length.
    """

    def __init__(self, *datasets):
        self._length = _check_lengths('TupleDataset', list(enumerate(datasets)))
        self._datasets = datasets

    def __getitem__(self, index):
        if isinstance(index, slice):
            columns = [dataset[index] for dataset in self._datasets]
            return list(zip(*columns))
        if _is_batch_index(index):
            return [self[i] for i in index]
        return tuple(dataset[index] for dataset in self._datasets)

    def __len__(self) -> int:
        return self._length


class DictDataset:
    """Zips equal-length datasets into dicts: the ``i``-th example is ``{k: d[i], ...}``.

    Indexing by a slice, a list or an integer array returns a list of dicts.

    Args:
        datasets: the datasets as keyword arguments, all of the same length.
    """

    def __init__(self, **datasets):
        self._length = _check_lengths('DictDataset', list(datasets.items()))
        self._datasets = datasets

    def __getitem__(self, index):
        if isinstance(index, slice):
            columns = {key: dataset[index] for key, dataset in self._datasets.items()}
            return [dict(zip(columns, values)) for values in zip(*columns.values())]
        if _is_batch_index(index):
            return [self[i] for i in index]
        return {key: dataset[index] for key, dataset in self._datasets.items()}

    def __len__(self) -> int:
        return self._length
