"""BboxHead: the regions of each level and the detections as ChainerCV's ``fpn.BboxHead``
gives them (``chainercv_fpn_decoding.npz``), its outputs' shapes, regions on no level, and
torchvision's decoding (per-axis rescaling, least size, cap)."""

from __future__ import annotations

import numpy

import framework
from vision.models.detection.fpn import BboxHead

from .conftest import SCALES


def _head(n_class=4):
    return BboxHead(n_class, SCALES, channels=8, n_hidden=16)


def test_distribute_and_decode_are_chainercvs(chainercv_decoding):
    d = chainercv_decoding
    head = _head()
    rois, roi_indices = head.distribute(d['head/rois'], numpy.zeros(60, numpy.int32))
    assert len(rois) == len(roi_indices) == 5 and len(rois[4]) == 0
    numpy.testing.assert_array_equal(numpy.concatenate(rois), d['head/rois_order'])
    bboxes, labels, scores = head.decode(rois, roi_indices, d['head/locs'],
                                         framework.Variable(d['head/confs']),
                                         [float(d['head/scale'])], [tuple(d['head/size'])],
                                         0.5, 0.05)
    numpy.testing.assert_array_equal(labels[0], d['head/label'])
    numpy.testing.assert_allclose(scores[0], d['head/score'], rtol=1e-5)
    numpy.testing.assert_allclose(bboxes[0], d['head/bbox'], rtol=1e-5, atol=1e-3)
    assert bboxes[0].dtype == numpy.float32 and labels[0].dtype == numpy.int32


def test_decode_splits_the_images():
    head = _head(3)
    rois = [numpy.array([[0, 0, 10, 10], [5, 5, 20, 30]], numpy.float32)] + \
        [numpy.zeros((0, 4), numpy.float32)] * 4
    roi_indices = [numpy.array([1, 0], numpy.int32)] + [numpy.zeros(0, numpy.int32)] * 4
    locs = numpy.zeros((2, 3, 4), numpy.float32)
    confs = numpy.array([[0, 5, 0], [0, 0, 5]], numpy.float32)
    bboxes, labels, scores = head.decode(rois, roi_indices, locs, confs, [1., 2.],
                                         [(100, 100), (8, 100)], 0.5, 0.5)
    numpy.testing.assert_array_equal(labels[0], [1])
    numpy.testing.assert_array_equal(bboxes[0], [[5, 5, 20, 30]])
    numpy.testing.assert_array_equal(labels[1], [0])
    numpy.testing.assert_array_equal(bboxes[1], [[0, 0, 5, 5]])  # halved, inside the image
    numpy.testing.assert_allclose(scores[1], [numpy.exp(5) / (numpy.exp(5) + 2)], rtol=1e-6)


def test_torchvisions_decoding_rescales_each_axis_and_keeps_the_best():
    # Decoded and clipped in the resized image (20x30), then scaled by 50/20 and 60/30; the
    # cap keeps the best two of three (logits 5 and 4, not 3), in the order of labels; 5e-3
    # high is no detection with min_size=1e-2, whatever its score.
    head = _head(3)
    rois = [numpy.array([[0, 0, 10, 10], [5, 5, 25, 35], [2, 2, 4, 6],
                         [1, 1, 1.005, 5]], numpy.float32)] + \
        [numpy.zeros((0, 4), numpy.float32)] * 4
    roi_indices = [numpy.zeros(4, numpy.int32)] + [numpy.zeros(0, numpy.int32)] * 4
    locs = numpy.zeros((4, 3, 4), numpy.float32)
    confs = numpy.array([[0, 3, 0], [0, 0, 5], [0, 4, 0], [0, 9, 0]], numpy.float32)
    bboxes, labels, scores = head.decode(rois, roi_indices, locs, confs, [0.4], [(50, 60)],
                                         0.5, 0.1, resized_sizes=[(20, 30)], min_size=1e-2,
                                         limit=2)
    numpy.testing.assert_array_equal(labels[0], [0, 1])
    numpy.testing.assert_allclose(bboxes[0], [[5, 4, 10, 12], [12.5, 10, 50, 60]], rtol=1e-6)
    numpy.testing.assert_allclose(scores[0], [numpy.exp(4) / (numpy.exp(4) + 2),
                                              numpy.exp(5) / (numpy.exp(5) + 2)], rtol=1e-6)


def test_forward_pools_each_region_on_its_level():
    head = _head()
    hs = [numpy.full((1, 8, 16, 16), level, numpy.float32) for level in range(5)]
    rois, roi_indices, order = head.distribute_in_order(
        numpy.array([[0, 0, 400, 400], [0, 0, 20, 20]], numpy.float32), numpy.zeros(2, 'i'))
    numpy.testing.assert_array_equal(order, [1, 0])
    pooled = head.pool(hs, rois, roi_indices)
    assert pooled.shape == (2, 8, 7, 7)
    numpy.testing.assert_array_equal(pooled.array[:, 0, 0, 0], [0, 2])
    locs, confs = head(hs, rois, roi_indices)
    assert locs.shape == (2, 4, 4) and confs.shape == (2, 4)


def test_no_regions_give_empty_outputs():
    head = _head()
    hs = [numpy.ones((1, 8, 4, 4), numpy.float32)] * 5
    rois, roi_indices = head.distribute(numpy.zeros((0, 4), numpy.float32),
                                        numpy.zeros(0, numpy.int32))
    locs, confs = head(hs, rois, roi_indices)
    assert locs.shape == (0, 4, 4) and confs.shape == (0, 4)
    bboxes, labels, scores = head.decode(rois, roi_indices, locs, confs, [1.], [(4, 4)],
                                         0.5, 0.)
    assert bboxes[0].shape == (0, 4) and labels[0].shape == scores[0].shape == (0,)
