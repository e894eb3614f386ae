"""Sliceable datasets (ChainerCV's ``chainer_experimental.datasets.sliceable``).

An example is a tuple of named values; ``dataset.slice[indices, keys]`` is a lazy view that
computes only the values asked for.
"""

from framework.datasets.sliceable.concatenated_dataset import ConcatenatedDataset
from framework.datasets.sliceable.getter_dataset import GetterDataset
from framework.datasets.sliceable.sliceable_dataset import (
    SliceableDataset,
    SlicedDataset,
    SliceHelper,
)
from framework.datasets.sliceable.transform_dataset import TransformDataset
from framework.datasets.sliceable.tuple_dataset import TupleDataset

__all__ = [
    'ConcatenatedDataset', 'GetterDataset', 'SliceHelper', 'SliceableDataset', 'SlicedDataset',
    'TransformDataset', 'TupleDataset',
]
