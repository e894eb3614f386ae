"""SubDataset and the ways to split a dataset (a fixed or a random split, n parts, k folds)."""

from __future__ import annotations

import numbers
import warnings

import numpy

from framework.dataset.dataset_mixin import DatasetMixin, normalize_index


class SubDataset(DatasetMixin):
    """The examples ``start`` to ``finish - 1`` of a dataset, optionally after a permutation.

    The ``i``-th example is ``dataset[order[start + i]]`` (``dataset[start + i]`` without
    ``order``); negative ``i`` counts from ``finish``.

    Args:
        dataset: the base dataset.
        start (int): the first index of the interval.
        finish (int): one past the last index of the interval.
        order (sequence of ints): a permutation of the indices of ``dataset``, or None.
    """

    def __init__(self, dataset, start: int, finish: int, order=None):
        if start < 0 or finish > len(dataset) or start > finish:
            raise ValueError(f'SubDataset: the interval [{start}, {finish}) must lie within '
                             f'the base dataset of length {len(dataset)}')
        if order is not None and len(order) != len(dataset):
            raise ValueError('SubDataset: order must have the length of the base dataset: '
                             f'len(order) = {len(order)} while len(dataset) = {len(dataset)}')
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self) -> int:
        return self._size

    def get_example(self, i):
        index = self._start + normalize_index('SubDataset', i, self._size)
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def _check_int(who: str, name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f'{who}: {name} must be an int, but got {type(value).__name__}')


def split_dataset(dataset, split_at: int, order=None) -> tuple[SubDataset, SubDataset]:
    """Splits a dataset in two at ``split_at``.

    Args:
        dataset: the dataset to split.
        split_at (int): the number of examples of the first part, in ``[0, len(dataset)]``.
        order (sequence of ints): a permutation of the indices (see :class:`SubDataset`).

    Returns:
        tuple: two :class:`SubDataset`: the examples ``order[:split_at]`` and
        ``order[split_at:]``.
    """
    _check_int('split_dataset', 'split_at', split_at)
    n_examples = len(dataset)
    if split_at < 0:
        raise ValueError(f'split_dataset: split_at must be non-negative, but got {split_at}')
    if split_at > n_examples:
        raise ValueError(f'split_dataset: split_at ({split_at}) exceeds the dataset size '
                         f'({n_examples})')
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, n_examples, order))


def split_dataset_random(dataset, first_size: int,
                         seed: int | None = None) -> tuple[SubDataset, SubDataset]:
    """Splits a dataset in two at random.

    Args:
        dataset: the dataset to split.
        first_size (int): the number of examples of the first part.
        seed (int): the seed of the permutation; the same seed gives the same split. None
            draws a new one.

    Returns:
        tuple: two :class:`SubDataset`, of ``first_size`` and ``len(dataset) - first_size``
        examples.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n: int, order=None) -> list[SubDataset]:
    """Splits a dataset into ``n`` parts of ``len(dataset) // n`` examples (the rest unused).

    Args:
        dataset: the dataset to split.
        n (int): the number of parts.
        order (sequence of ints): a permutation of the indices (see :class:`SubDataset`).

    Returns:
        list: ``n`` :class:`SubDataset`, part ``i`` holding
        ``order[i * size:(i + 1) * size]``.
    """
    _check_int('split_dataset_n', 'n', n)
    if n <= 0:
        raise ValueError(f'split_dataset_n: n must be positive, but got {n}')
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset, n: int, seed: int | None = None) -> list[SubDataset]:
    """:func:`split_dataset_n` after a random permutation drawn from ``seed``."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(dataset, n_folds: int | None = None, order=None, *,
                                  n_fold: int | None = None
                                  ) -> list[tuple[SubDataset, SubDataset]]:
    """The ``n_folds`` (train, test) splits of a k-fold cross-validation.

    The test parts do not overlap and together cover the dataset; their sizes differ by at
    most one.

    Args:
        dataset: the dataset to split.
        n_folds (int): the number of folds.
        order (sequence of ints): a permutation of the indices, or None.
        n_fold (int): *(deprecated, as in Chainer)* the former name of ``n_folds``.

    Returns:
        list: ``n_folds`` pairs of :class:`SubDataset` (train, test).
    """
    n_folds = _n_folds('get_cross_validation_datasets', n_folds, n_fold)
    order = numpy.arange(len(dataset)) if order is None else numpy.array(order)
    whole = len(dataset)
    borders = [whole * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for test_size in reversed([b - a for a, b in zip(borders, borders[1:])]):
        splits.append(split_dataset(dataset, whole - test_size, order))
        order = numpy.roll(order, test_size)
    return splits


def get_cross_validation_datasets_random(dataset, n_folds: int | None = None,
                                         seed: int | None = None, *,
                                         n_fold: int | None = None
                                         ) -> list[tuple[SubDataset, SubDataset]]:
    """:func:`get_cross_validation_datasets` after a random permutation drawn from ``seed``
    (``n_fold`` is the deprecated name of ``n_folds``, as in Chainer)."""
    n_folds = _n_folds('get_cross_validation_datasets_random', n_folds, n_fold)
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order)


def _n_folds(who: str, n_folds, n_fold) -> int:
    """``n_folds``, or the deprecated ``n_fold`` (with a :class:`DeprecationWarning`)."""
    if n_fold is not None:
        if n_folds is not None:
            raise TypeError(f'{who}: give n_folds only (n_fold is its deprecated name), but '
                            f'got n_folds={n_folds!r} and n_fold={n_fold!r}')
        warnings.warn(f'{who}: n_fold is deprecated; use n_folds', DeprecationWarning,
                      stacklevel=3)
        n_folds = n_fold
    if n_folds is None:
        raise TypeError(f'{who}: n_folds (the number of folds) is required')
    _check_int(who, 'n_folds', n_folds)
    if n_folds <= 0:
        raise ValueError(f'{who}: n_folds must be positive, but got {n_folds}')
    return n_folds
