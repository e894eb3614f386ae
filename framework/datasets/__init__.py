"""Dataset helpers (``from framework import datasets``), with Chainer's names.

- Combining and transforming: :class:`TupleDataset`, :class:`DictDataset`,
  :class:`TransformDataset`, :class:`ConcatenatedDataset`.
- Splitting: :class:`SubDataset`, :func:`split_dataset`, :func:`split_dataset_random`,
  :func:`split_dataset_n`, :func:`split_dataset_n_random`,
  :func:`get_cross_validation_datasets`, :func:`get_cross_validation_datasets_random`.
- :class:`DatasetMixin` (also :class:`framework.dataset.DatasetMixin`).
- Sliceable datasets, whose examples are tuples of named values read selectively
  (ChainerCV's): :class:`SliceableDataset`, :class:`GetterDataset` here and all of them,
  sliceable ``TupleDataset``, ``TransformDataset`` and ``ConcatenatedDataset`` included, in
  :mod:`framework.datasets.sliceable`.
"""

from framework.dataset.dataset_mixin import DatasetMixin
from framework.datasets import sliceable
from framework.datasets.concatenated_dataset import ConcatenatedDataset
from framework.datasets.sliceable import GetterDataset, SliceableDataset
from framework.datasets.sub_dataset import (
    SubDataset,
    get_cross_validation_datasets,
    get_cross_validation_datasets_random,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)
from framework.datasets.transform_dataset import TransformDataset
from framework.datasets.tuple_dataset import DictDataset, TupleDataset

__all__ = [
    'ConcatenatedDataset', 'DatasetMixin', 'DictDataset', 'GetterDataset', 'SliceableDataset',
    'SubDataset', 'TransformDataset', 'TupleDataset', 'get_cross_validation_datasets',
    'get_cross_validation_datasets_random', 'sliceable', 'split_dataset', 'split_dataset_n',
    'split_dataset_n_random', 'split_dataset_random',
]
