"""MixUpSoftLabelDataset: ChainerCV's cases and the mixture itself."""

from __future__ import annotations

import numpy
import pytest

from framework.datasets import TupleDataset
from vision.datasets import MixUpSoftLabelDataset, SiameseDataset
from vision.utils.testing import assert_is_image

N = 15
_IMG_SHAPE = (3, 32, 48)


@pytest.fixture(params=[
    (numpy.arange(N) % 3, numpy.arange(N) % 3, 1.0),
    (numpy.zeros(N), numpy.ones(N), 2.0),
    (numpy.ones(N), numpy.ones(N), 5.0),
], ids=['both', 'no-positive', 'no-negative'])
def case(request):
    labels_0, labels_1, alpha = request.param
    rng = numpy.random.default_rng(0)
    labels_0 = rng.permutation(labels_0).astype(numpy.int32)
    labels_1 = rng.permutation(labels_1).astype(numpy.int32)
    siamese = SiameseDataset(TupleDataset(rng.uniform(size=(N,) + _IMG_SHAPE), labels_0),
                             TupleDataset(rng.uniform(size=(N,) + _IMG_SHAPE), labels_1))
    return siamese, int(max(labels_0.max(), labels_1.max())) + 1, alpha


def test_mixup(case):
    siamese, n_class, alpha = case
    dataset = MixUpSoftLabelDataset(siamese, n_class, alpha=alpha)
    assert len(dataset) == N
    for i in range(10):
        img, label = dataset[i]
        assert_is_image(img)
        assert img.shape == _IMG_SHAPE
        assert label.dtype == numpy.float32 and label.shape == (n_class,)
        numpy.testing.assert_almost_equal(label.sum(), 1.0)
        assert (label >= 0).all()


@pytest.mark.parametrize('alpha', [0.0, -4.0])
def test_invalid_alpha(case, alpha):
    with pytest.raises(ValueError, match=f'alpha must be positive, but got {alpha}'):
        MixUpSoftLabelDataset(case[0], case[1], alpha=alpha)


def test_invalid_n_class(case):
    with pytest.raises(ValueError, match='n_class must be a positive int, but got 0'):
        MixUpSoftLabelDataset(case[0], 0)


class _Pairs:
    """Constant images 10 and 50 with labels 0 and 2."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return (numpy.full((1, 2, 2), 10, numpy.float32), numpy.int32(0),
                numpy.full((1, 2, 2), 50, numpy.float32), numpy.int32(2))


def test_mixture_matches_the_soft_label():
    numpy.random.seed(0)
    dataset = MixUpSoftLabelDataset(_Pairs(), 3, alpha=0.4)
    ratios = []
    for i in range(200):
        img, label = dataset[i % 3]
        ratio = label[0]
        assert img.dtype == numpy.float32
        numpy.testing.assert_allclose(img, ratio * 10 + (1 - ratio) * 50, rtol=1e-5)
        numpy.testing.assert_allclose(label, [ratio, 0, 1 - ratio], atol=1e-6)
        ratios.append(ratio)
    # Beta(0.4, 0.4) has mean 1/2 and variance 1/7.2.
    assert abs(numpy.mean(ratios) - 0.5) < 0.07
    assert abs(numpy.var(ratios) - 1 / 7.2) < 0.03
