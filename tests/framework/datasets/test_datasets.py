"""TupleDataset, DictDataset, TransformDataset, ConcatenatedDataset and DatasetMixin."""

import numpy
import pytest

from framework.datasets import (
    ConcatenatedDataset,
    DatasetMixin,
    DictDataset,
    TransformDataset,
    TupleDataset,
)


class _Squares(DatasetMixin):
    def __len__(self):
        return 6

    def get_example(self, i):
        if not -6 <= i < 6:
            raise IndexError(i)
        return i * i


def test_dataset_mixin_indexing():
    d = _Squares()
    assert d[2] == 4
    assert d[1:4] == [1, 4, 9]
    assert d[::-2] == [25, 9, 1]
    assert d[[4, 0]] == [16, 0]
    assert d[numpy.arange(3)] == [0, 1, 4]
    with pytest.raises(IndexError):
        d[6]


def test_tuple_dataset():
    a, b = [8, 0, 5, 1], numpy.array([3, 1, 7, 4])
    d = TupleDataset(a, b)
    assert len(d) == 4
    assert d[2] == (5, 7)
    assert d[1:3] == [(0, 1), (5, 7)]
    assert d[[3, 0]] == [(1, 4), (8, 3)]
    assert d[numpy.array([1])] == [(0, 1)]
    with pytest.raises(ValueError, match='no datasets are given'):
        TupleDataset()
    with pytest.raises(ValueError, match="dataset 1 has length 2 and the first 4"):
        TupleDataset(a, [1, 2])


def test_dict_dataset():
    d = DictDataset(x=[1, 2, 3], y=numpy.array([4, 5, 6]))
    assert len(d) == 3
    assert d[1] == {'x': 2, 'y': 5}
    assert d[:2] == [{'x': 1, 'y': 4}, {'x': 2, 'y': 5}]
    assert d[[2]] == [{'x': 3, 'y': 6}]
    with pytest.raises(ValueError, match="dataset 'y' has length 1"):
        DictDataset(x=[1, 2], y=[1])


def test_transform_dataset_transforms_at_each_read():
    calls = []

    def transform(example):
        calls.append(example)
        return example * 10

    d = TransformDataset([1, 2, 3], transform)
    assert len(d) == 3
    assert calls == []
    assert d[1] == 20
    assert d[0:2] == [10, 20]
    assert d[-1] == 30
    assert calls == [2, 1, 2, 3]


def test_concatenated_dataset():
    d = ConcatenatedDataset([0, 1], [], [2, 3, 4])
    assert len(d) == 5
    assert [d[i] for i in range(5)] == [0, 1, 2, 3, 4]
    assert d[-1] == 4 and d[-5] == 0
    assert d[1:4] == [1, 2, 3]
    with pytest.raises(IndexError, match='index 5 is out of range for a dataset of length 5'):
        d[5]
    with pytest.raises(IndexError):
        d[-6]
    assert len(ConcatenatedDataset()) == 0
