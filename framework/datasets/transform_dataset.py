"""TransformDataset: a function applied to each example when it is read."""

from __future__ import annotations

from collections.abc import Callable

from framework.dataset.dataset_mixin import DatasetMixin


class TransformDataset(DatasetMixin):
    """A dataset whose ``i``-th example is ``transform(dataset[i])``, computed when read.

    The transform runs in whatever reads the example, so a random augmentation draws anew at
    each read, and a :class:`~framework.iterators.MultiprocessIterator` runs it in its worker
    processes.

    Args:
        dataset: the underlying dataset.
        transform: the function applied to each example.
    """

    def __init__(self, dataset, transform: Callable):
        self._dataset = dataset
        self._transform = transform

    def __len__(self) -> int:
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
