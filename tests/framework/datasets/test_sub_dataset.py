"""SubDataset and the splits."""

import numpy
import pytest

from framework.datasets import (
    SubDataset,
    get_cross_validation_datasets,
    get_cross_validation_datasets_random,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)


def test_sub_dataset():
    base = list(range(10, 20))
    d = SubDataset(base, 2, 5)
    assert len(d) == 3
    assert [d[i] for i in range(3)] == [12, 13, 14]
    assert d[-1] == 14 and d[-3] == 12
    assert d[1:] == [13, 14]
    with pytest.raises(IndexError):
        d[3]
    with pytest.raises(IndexError):
        d[-4]
    ordered = SubDataset(base, 0, 3, order=list(range(9, -1, -1)))
    assert list(ordered) == [19, 18, 17]
    with pytest.raises(ValueError, match='must lie within the base dataset of length 10'):
        SubDataset(base, 5, 11)
    with pytest.raises(ValueError, match='order must have the length of the base dataset'):
        SubDataset(base, 0, 2, order=[0, 1])


def test_split_dataset():
    a, b = split_dataset(list(range(5)), 2)
    assert list(a) == [0, 1] and list(b) == [2, 3, 4]
    a, b = split_dataset(list(range(5)), 2, order=[4, 3, 2, 1, 0])
    assert list(a) == [4, 3] and list(b) == [2, 1, 0]
    a, b = split_dataset(list(range(3)), 3)
    assert list(a) == [0, 1, 2] and len(b) == 0
    with pytest.raises(ValueError, match='split_at must be non-negative'):
        split_dataset([1, 2], -1)
    with pytest.raises(ValueError, match='exceeds the dataset size'):
        split_dataset([1, 2], 3)
    with pytest.raises(TypeError, match='split_at must be an int'):
        split_dataset([1, 2], 1.0)


def test_split_dataset_random_is_reproducible_from_the_seed():
    base = list(range(20))
    a, b = split_dataset_random(base, 7, seed=0)
    assert len(a) == 7 and len(b) == 13
    assert sorted(list(a) + list(b)) == base
    order = numpy.random.RandomState(0).permutation(20)
    assert list(a) == order[:7].tolist()
    a2, _ = split_dataset_random(base, 7, seed=0)
    assert list(a2) == list(a)


def test_split_dataset_n():
    parts = split_dataset_n(list(range(7)), 3)
    assert [list(p) for p in parts] == [[0, 1], [2, 3], [4, 5]]
    parts = split_dataset_n_random(list(range(6)), 2, seed=1)
    assert sorted(sum((list(p) for p in parts), [])) == list(range(6))


def test_cross_validation():
    splits = get_cross_validation_datasets(list(range(5)), 3)
    assert [(list(train), list(test)) for train, test in splits] == [
        ([0, 1, 2], [3, 4]), ([3, 4, 0], [1, 2]), ([1, 2, 3, 4], [0])]
    splits = get_cross_validation_datasets_random(list(range(10)), 4, seed=0)
    tests = sorted(sum((list(test) for _, test in splits), []))
    assert tests == list(range(10))
    for train, test in splits:
        assert sorted(list(train) + list(test)) == list(range(10))


def test_cross_validation_n_folds_keyword():
    expected = get_cross_validation_datasets(list(range(5)), 3)
    splits = get_cross_validation_datasets(list(range(5)), n_folds=3)
    assert [(list(a), list(b)) for a, b in splits] == [(list(a), list(b)) for a, b in expected]
    random_splits = get_cross_validation_datasets_random(list(range(5)), n_folds=3, seed=0)
    assert len(random_splits) == 3


@pytest.mark.parametrize('function', [get_cross_validation_datasets,
                                      get_cross_validation_datasets_random])
def test_cross_validation_deprecated_n_fold(function):
    with pytest.warns(DeprecationWarning, match='n_folds'):
        splits = function(list(range(6)), n_fold=2)
    assert len(splits) == 2
    with pytest.raises(TypeError, match='n_folds'):
        function(list(range(6)), 2, n_fold=2)
    with pytest.raises(TypeError, match='n_folds'):
        function(list(range(6)))
    with pytest.raises(ValueError, match='n_folds must be positive'):
        function(list(range(6)), 0)
