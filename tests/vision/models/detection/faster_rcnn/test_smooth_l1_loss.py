"""smooth_l1_loss: values on both sides of the kink (and at it), gradients, double backprop;
fast_rcnn_loc_loss's normalisation."""

from __future__ import annotations

import numpy
import pytest

from framework import Variable
from framework.testing import check_backward, check_double_backward
from vision.models.detection.faster_rcnn.utils import fast_rcnn_loc_loss, smooth_l1_loss


def _reference(x, t, w, sigma):
    """ChainerCV's formula."""
    sigma2 = sigma ** 2
    d = numpy.abs(w * (x - t))
    return numpy.where(d < 1 / sigma2, sigma2 / 2 * d ** 2, d - 0.5 / sigma2).sum()


@pytest.mark.parametrize('sigma', [1., 3.])
def test_values_around_the_kink(sigma):
    x = numpy.array([[0, 0.05, 1 / sigma ** 2, -0.3, 2, -5]], numpy.float64)
    t = numpy.zeros_like(x)
    w = numpy.array([[1, 1, 1, 1, 0, 1]], numpy.float64)
    loss = smooth_l1_loss(x, t, w, sigma)
    assert loss.shape == () and loss.dtype == numpy.float64
    numpy.testing.assert_allclose(loss.array, _reference(x, t, w, sigma), rtol=1e-12)


@pytest.mark.parametrize('sigma', [1., 3.])
def test_gradients(sigma):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (6, 4))
    t = rng.uniform(-1, 1, (6, 4))
    # keep |x - t| away from the kink 1 / sigma^2 where the derivative is not smooth
    near = numpy.abs(numpy.abs(x - t) - 1 / sigma ** 2) < 0.05
    x[near] += 0.2
    w = (rng.uniform(size=(6, 4)) > 0.3).astype(numpy.float64)
    check_backward(lambda x, t: smooth_l1_loss(x, t, w, sigma), (x, t), None, eps=1e-4,
                   atol=1e-6, rtol=1e-5)
    check_double_backward(lambda x, t: smooth_l1_loss(x, t, w, sigma), (x, t), None,
                          (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, t.shape)),
                          eps=1e-4, atol=1e-5, rtol=1e-4)


def test_loc_loss_counts_the_samples_not_ignored():
    pred = Variable(numpy.ones((4, 4), numpy.float32))
    gt = numpy.zeros((4, 4), numpy.float32)
    label = numpy.array([1, 0, -1, 2], numpy.int32)
    loss = fast_rcnn_loc_loss(pred, gt, label, 1.)
    # two positive samples, each 4 * (1 - 0.5); three not ignored
    numpy.testing.assert_allclose(loss.array, 2 * 4 * 0.5 / 3, rtol=1e-6)
    loss.backward()
    numpy.testing.assert_allclose(pred.grad[[0, 3]], 1 / 3, rtol=1e-6)
    numpy.testing.assert_array_equal(pred.grad[[1, 2]], 0)
