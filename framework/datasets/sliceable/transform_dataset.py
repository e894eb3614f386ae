"""The sliceable TransformDataset: a function applied to each example, with named outputs."""

from __future__ import annotations

from framework.datasets.sliceable.getter_dataset import GetterDataset
from framework.datasets.sliceable.sliceable_dataset import is_iterable


class TransformDataset(GetterDataset):
    """A sliceable version of :class:`framework.datasets.TransformDataset`.

    ::

        dataset = TransformDataset(dataset, ('img', 'label'), transform)
        dataset.keys    # ('img', 'label')

    Args:
        dataset: the underlying dataset (``__len__`` and ``__getitem__``).
        keys (str, tuple of str or int): the name(s) or the number of the values that
            ``transform`` returns. When left out (``TransformDataset(dataset, transform)``),
            the first example is transformed to count them.
        transform (callable): called on each example of ``dataset``.

    A slice still computes the whole transform; it only saves the values it does not keep.
    """

    def __init__(self, dataset, keys, transform=None):
        if transform is None:
            keys, transform = None, keys
        super().__init__()
        self._dataset = dataset
        self._transform = transform
        if isinstance(keys, int) and not isinstance(keys, bool):
            keys = None if keys == 1 else (None,) * keys
        elif keys is None:
            sample = self._get(0)
            keys = (None,) * len(sample) if isinstance(sample, tuple) else None
        self.add_getter(keys, self._get)
        if is_iterable(keys):
            self.keys = tuple(range(len(keys)))
        else:
            self.keys = 0

    def __len__(self) -> int:
        return len(self._dataset)

    def _get(self, index):
        return self._transform(self._dataset[index])
