"""SiameseDataset: ChainerCV's cases, the ratio of positive pairs, labels read by slicing."""

from __future__ import annotations

import numpy
import pytest

from framework.datasets import GetterDataset, TupleDataset
from vision.datasets import SiameseDataset
from vision.utils.testing import assert_is_image

N = 15
_IMG_SHAPE = (3, 32, 48)
# labels_0, labels_1, positive pairs exist, negative pairs exist
_CASES = [
    (numpy.arange(N, dtype=numpy.int32) % 3, numpy.arange(N, dtype=numpy.int32) % 3, True, True),
    (numpy.zeros(N, dtype=numpy.int32), numpy.ones(N, dtype=numpy.int32), False, True),
    (numpy.ones(N, dtype=numpy.int32), numpy.ones(N, dtype=numpy.int32), True, False),
]


@pytest.fixture(params=_CASES, ids=['both', 'no-positive', 'no-negative'])
def case(request):
    labels_0, labels_1, pos_exist, neg_exist = request.param
    rng = numpy.random.default_rng(0)
    labels_0, labels_1 = rng.permutation(labels_0), rng.permutation(labels_1)
    dataset_0 = TupleDataset(rng.uniform(size=(N,) + _IMG_SHAPE), labels_0)
    dataset_1 = TupleDataset(rng.uniform(size=(N,) + _IMG_SHAPE), labels_1)
    n_class = int(max(labels_0.max(), labels_1.max())) + 1
    return dataset_0, dataset_1, labels_0, labels_1, pos_exist, neg_exist, n_class


def _check_example(example, n_class):
    assert len(example) == 4
    for img, label in (example[:2], example[2:]):
        assert_is_image(img)
        assert img.shape == _IMG_SHAPE
        assert isinstance(label, numpy.int32) and label.ndim == 0
        assert 0 <= label < n_class


def test_no_pos_ratio(case):
    dataset_0, dataset_1, *_, n_class = case
    dataset = SiameseDataset(dataset_0, dataset_1)
    assert dataset.keys == ('img_0', 'label_0', 'img_1', 'label_1')
    assert len(dataset) == N
    for i in range(10):
        _check_example(dataset[i], n_class)


def test_pos_ratio(case):
    dataset_0, dataset_1, labels_0, labels_1, pos_exist, neg_exist, n_class = case
    if pos_exist and neg_exist:
        dataset = SiameseDataset(dataset_0, dataset_1, 0.5, labels_0=labels_0, labels_1=labels_1)
        assert len(dataset) == N
        for i in range(10):
            _check_example(dataset[i], n_class)
    else:
        with pytest.raises(ValueError, match='SiameseDataset: pos_ratio asks for'):
            SiameseDataset(dataset_0, dataset_1, 0.5, labels_0=labels_0, labels_1=labels_1)


@pytest.mark.parametrize('pos_ratio', [0, 1])
def test_pure_ratios(case, pos_ratio):
    dataset_0, dataset_1, _, _, pos_exist, neg_exist, n_class = case
    if not (pos_exist if pos_ratio else neg_exist):
        with pytest.raises(ValueError, match='SiameseDataset: pos_ratio asks for'):
            SiameseDataset(dataset_0, dataset_1, pos_ratio)
        return
    dataset = SiameseDataset(dataset_0, dataset_1, pos_ratio)
    for i in range(10):
        example = dataset[i]
        _check_example(example, n_class)
        assert (example[1] == example[3]) == bool(pos_ratio)


def test_length(case):
    assert len(SiameseDataset(case[0], case[1], length=100)) == 100


def test_positive_rate_and_pairing():
    labels = numpy.arange(40, dtype=numpy.int32) % 4
    dataset_0 = TupleDataset(numpy.arange(40), labels)
    numpy.random.seed(0)
    dataset = SiameseDataset(dataset_0, dataset_0, pos_ratio=0.3, labels_1=labels)
    examples = [dataset[i % len(dataset)] for i in range(2000)]
    positive = numpy.mean([e[1] == e[3] for e in examples])
    assert abs(positive - 0.3) < 0.04
    # Each example is a real example of its dataset: the value and its label agree.
    assert all(e[0] % 4 == e[1] and e[2] % 4 == e[3] for e in examples)


class _LazyImages(GetterDataset):
    """Labels from a table; decoding an image is an error."""

    def __init__(self, labels):
        super().__init__()
        self.labels = labels
        self.add_getter('img', self._fail)
        self.add_getter('label', lambda i: self.labels[i])

    def __len__(self):
        return len(self.labels)

    def _fail(self, i):
        raise AssertionError('an image was decoded')


def test_extra_values_are_dropped():
    dataset = TupleDataset(numpy.arange(4), numpy.zeros(4, numpy.int32), numpy.full(4, 7))
    example = SiameseDataset(dataset, dataset)[0]
    assert len(example) == 4 and example[1] == example[3] == 0


def test_labels_are_read_by_slicing():
    dataset = _LazyImages(numpy.array([0, 1, 1, 2], dtype=numpy.int32))
    siamese = SiameseDataset(dataset, dataset, pos_ratio=0.5)
    assert len(siamese) == 4


def test_index_out_of_range(case):
    dataset = SiameseDataset(case[0], case[1])
    with pytest.raises(IndexError, match='index 15 is out of range'):
        dataset[N]
    assert len(list(dataset)) == N


@pytest.mark.parametrize('kwargs, message', [
    ({'pos_ratio': 1.5}, r'pos_ratio must be None or in \[0, 1\], but got 1.5'),
    ({'length': -1}, 'length must be None or a non-negative int, but got -1'),
    ({'pos_ratio': 0.5, 'labels_0': numpy.zeros(N)},
     r'labels_0 must be an int32 array of shape \(15,\).* but got an array of shape \(15,\) '
     r'and dtype float64'),
    ({'pos_ratio': 0.5, 'labels_1': [0] * N}, 'labels_1 must be .* but got a list'),
])
def test_bad_arguments(case, kwargs, message):
    with pytest.raises(ValueError, match='SiameseDataset: ' + message):
        SiameseDataset(case[0], case[1], **kwargs)
