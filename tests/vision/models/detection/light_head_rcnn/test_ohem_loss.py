"""ohem_loss against ChainerCV's ``_ohem_loss`` written out, and its gradient."""

from __future__ import annotations

import numpy

from framework.testing.gradient_check import check_backward
from vision.models.detection.light_head_rcnn import ohem_loss


def _chainercv_ohem_loss(roi_cls_locs, roi_scores, gt_roi_locs, gt_roi_labels, n_ohem_sample,
                         roi_sigma):
    """ChainerCV master's ``_ohem_loss`` of Light-Head R-CNN, in NumPy."""
    n_sample = len(roi_cls_locs)
    roi_locs = roi_cls_locs.reshape((n_sample, -1, 4))[numpy.arange(n_sample), gt_roi_labels]
    sigma2 = roi_sigma ** 2
    diff = (gt_roi_labels > 0)[:, None] * (roi_locs - gt_roi_locs)
    abs_diff = numpy.abs(diff)
    flag = abs_diff < 1 / sigma2
    loc = (flag * sigma2 / 2 * diff ** 2 + (1 - flag) * (abs_diff - 0.5 / sigma2)).sum(axis=1)
    shifted = roi_scores - roi_scores.max(axis=1, keepdims=True)
    log_prob = shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))
    cls = -log_prob[numpy.arange(n_sample), gt_roi_labels]
    n = min(n_ohem_sample, n_sample)
    hardest = (loc + cls).argsort()[::-1][:n]
    return loc[hardest].sum() / n, cls[hardest].sum() / n


def _inputs(seed=0, n=12, n_class=3):
    rng = numpy.random.RandomState(seed)
    return (rng.standard_normal((n, 4 * n_class)).astype(numpy.float32),
            rng.standard_normal((n, n_class)).astype(numpy.float32),
            rng.standard_normal((n, 4)).astype(numpy.float32),
            rng.randint(0, n_class, n).astype(numpy.int32))


def test_chainercvs_losses_of_the_hardest_regions():
    for n_ohem_sample, sigma in ((5, 1.), (12, 3.), (40, 1.)):
        locs, scores, gt_locs, gt_labels = _inputs()
        loc_loss, cls_loss = ohem_loss(locs, scores, gt_locs, gt_labels, n_ohem_sample, sigma)
        expected = _chainercv_ohem_loss(locs, scores, gt_locs, gt_labels, n_ohem_sample, sigma)
        assert loc_loss.shape == cls_loss.shape == () and loc_loss.dtype == numpy.float32
        numpy.testing.assert_allclose(float(loc_loss.array), expected[0], rtol=1e-5)
        numpy.testing.assert_allclose(float(cls_loss.array), expected[1], rtol=1e-5)


def test_gradient():
    locs, scores, gt_locs, gt_labels = _inputs(1)
    grads = (numpy.array(0.7, numpy.float32), numpy.array(-1.3, numpy.float32))
    check_backward(lambda a, b: ohem_loss(a, b, gt_locs, gt_labels, 5, 1.), (locs, scores),
                   grads, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
