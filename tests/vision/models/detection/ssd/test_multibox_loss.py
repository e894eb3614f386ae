import numpy
import pytest

import framework.functions as F
from framework.testing import check_backward
from vision.models.detection.ssd import multibox_loss


def _data(seed=0, B=2, K=12, n_class=4, n_positive=(2, 1)):
    rng = numpy.random.RandomState(seed)
    mb_locs = rng.normal(0, 1, (B, K, 4))
    mb_confs = rng.normal(0, 1, (B, K, n_class))
    gt_mb_locs = rng.normal(0, 1, (B, K, 4))
    gt_mb_labels = numpy.zeros((B, K), numpy.int32)
    for b, n in enumerate(n_positive):
        gt_mb_labels[b, rng.choice(K, n, replace=False)] = rng.randint(1, n_class, n)
    return mb_locs, mb_confs, gt_mb_locs, gt_mb_labels


def _reference(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k):
    """The losses written with loops: the k * n_positive negatives of highest cross entropy
    in each image."""
    positive = gt_mb_labels > 0
    n_positive = positive.sum()
    diff = numpy.abs(mb_locs - gt_mb_locs)
    huber = numpy.where(diff < 1, diff ** 2 / 2, diff - 0.5).sum(axis=2)
    loc = (huber * positive).sum() / n_positive
    logp = mb_confs - numpy.log(numpy.exp(mb_confs).sum(axis=2, keepdims=True))
    ce = -numpy.take_along_axis(logp, gt_mb_labels[..., None], axis=2)[..., 0]
    conf = 0
    for b in range(len(ce)):
        negatives = numpy.sort(ce[b][~positive[b]])[::-1][:int(k * positive[b].sum())]
        conf += ce[b][positive[b]].sum() + negatives.sum()
    return loc, conf / n_positive


@pytest.mark.parametrize('k', [3, 1, 100])
def test_values(k):
    data = _data()
    loc_loss, conf_loss = multibox_loss(*data, k)
    loc, conf = _reference(*data, k)
    numpy.testing.assert_allclose(loc_loss.array, loc, rtol=1e-10)
    numpy.testing.assert_allclose(conf_loss.array, conf, rtol=1e-10)


def test_float32():
    data = _data()
    data = [a.astype(numpy.float32) if a.dtype.kind == 'f' else a for a in data]
    loc_loss, conf_loss = multibox_loss(*data, 3)
    assert loc_loss.dtype == conf_loss.dtype == numpy.float32
    assert loc_loss.shape == conf_loss.shape == ()


def test_no_positive_gives_zeros():
    data = _data(n_positive=(0, 0))
    loc_loss, conf_loss = multibox_loss(*data, 3)
    assert float(loc_loss.array) == float(conf_loss.array) == 0


def test_the_positives_are_averaged_over_the_processes():
    class Comm:
        size = 2

        def allreduce_obj(self, value):
            return value + 5

    data = _data()
    loc_loss, conf_loss = multibox_loss(*data, 3, comm=Comm())
    loc, conf = _reference(*data, 3)
    numpy.testing.assert_allclose(loc_loss.array, loc * 3 / 4, rtol=1e-10)
    numpy.testing.assert_allclose(conf_loss.array, conf * 3 / 4, rtol=1e-10)


def test_shapes_are_checked():
    mb_locs, mb_confs, gt_mb_locs, gt_mb_labels = _data()
    with pytest.raises(ValueError, match='multibox_loss: expected'):
        multibox_loss(mb_locs[:, :5], mb_confs, gt_mb_locs, gt_mb_labels, 3)


@pytest.mark.parametrize('seed', [0, 1, 2])
def test_backward(seed):
    mb_locs, mb_confs, gt_mb_locs, gt_mb_labels = _data(seed)

    def f(locs, confs):
        loc_loss, conf_loss = multibox_loss(locs, confs, gt_mb_locs, gt_mb_labels, 3)
        return F.stack((loc_loss, conf_loss))

    check_backward(f, (mb_locs, mb_confs), numpy.array([1.0, 0.5]), eps=1e-6, atol=1e-7,
                   rtol=1e-6)
