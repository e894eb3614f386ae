"""LightHeadRCNN's predict on a tiny model: the contract, the presets, the order and number of
detections, boxes without area, the raw outputs, and hybridize()."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.utils.testing import assert_is_detection_link

from .conftest import images


def test_predict_keeps_the_detection_contract(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    model.use_preset('evaluate')
    assert_is_detection_link(model, 3)


def test_presets_are_chainercvs():
    from .conftest import TinyLightHeadRCNN
    model = TinyLightHeadRCNN()
    assert (model.nms_thresh, model.score_thresh, model.max_n_predict) == (0.5, 0.5, 100)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.)
    with pytest.raises(ValueError, match="preset must be 'visualize' or 'evaluate'"):
        model.use_preset('fast')


def test_detections_by_decreasing_score_at_most_max_n_predict(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    model.use_preset('evaluate')
    bboxes, labels, scores = model.predict(images())
    assert all(len(s) > 10 for s in scores)
    for score in scores:
        assert (numpy.diff(score) <= 0).all()
    model.max_n_predict = 7
    fewer = model.predict(images())
    for outputs, references in zip(fewer, (bboxes, labels, scores)):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e[:7])


def test_boxes_without_area_are_no_detection(tiny_light_head_rcnn):
    # ChainerCV's proposals of min_size 0 keep anchors clipped to a line at the image's edge,
    # whose boxes ChainerCV's predict may return
    model = tiny_light_head_rcnn()
    model.use_preset('evaluate')
    box = numpy.array([10, 20, 30, 40], numpy.float32)
    cls_bbox = numpy.tile(box, (3, 4, 1))
    cls_bbox[0, :, 3] = 20          # no width
    cls_bbox[1, :, 2] = 10          # no height
    cls_bbox[2, :, :2] += 50        # the far corner is out of place
    cls_bbox[2, 1] = box + 60       # but for class 0
    prob = numpy.full((3, 4), 0.25, numpy.float32)
    bbox, label, score = model._suppress(cls_bbox, prob)
    numpy.testing.assert_array_equal(bbox, (box + 60)[None])
    numpy.testing.assert_array_equal(label, [0])


def test_forward_runs_the_rpn_on_the_first_map_and_the_head_on_the_second(
        tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    x = model.prepare(images()[0])[None]
    with framework.using_config('train', False), framework.no_backprop_mode():
        roi_cls_locs, roi_scores, rois, roi_indices = model(x, 1.)
        rpn_features, roi_features = model.extractor(x)
        _, _, expected_rois, _, _ = model.rpn(rpn_features, x.shape[2:], 1.)
        expected = model.head(roi_features, rois, roi_indices)
    numpy.testing.assert_array_equal(rois, expected_rois)
    assert roi_cls_locs.shape == (len(rois), 16) and roi_scores.shape == (len(rois), 4)
    numpy.testing.assert_array_equal(roi_cls_locs.array, expected[0].array)
    numpy.testing.assert_array_equal(roi_scores.array, expected[1].array)
    assert (roi_indices == 0).all()


def test_hybridized_predict_equals_eager(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    model.use_preset('evaluate')
    imgs = images(1)
    eager = model.predict(imgs)
    model.hybridize()
    assert model._static_graph is not None and model.head._static_graph is not None
    hybrid = model.predict(imgs)
    for outputs, references in zip(hybrid, eager):
        for a, e in zip(outputs, references):
            assert a.dtype == e.dtype and a.shape == e.shape
            numpy.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-4)
    model.hybridize(False)
    for outputs, references in zip(model.predict(imgs), eager):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e)
