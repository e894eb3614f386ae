"""FasterRCNN's predict on a tiny model: the contract, the presets, preparation of images of
any size, grayscale, images without pixels or detection, and hybridize()."""

from __future__ import annotations

import numpy
import pytest

from vision.utils.testing import assert_is_detection_link


def _images(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 150, 70)).astype(numpy.float32)]


def test_predict_keeps_the_detection_contract(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    for preset in ('visualize', 'evaluate'):
        model.use_preset(preset)
        assert_is_detection_link(model, 3)


def test_presets_are_chainercvs(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    assert (model.nms_thresh, model.score_thresh) == (0.3, 0.7)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.3, 0.05)
    with pytest.raises(ValueError, match="'visualize' or 'evaluate', but got 'fast'"):
        model.use_preset('fast')


def test_detections_are_in_the_input_images_pixels(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    model.score_thresh = 0.
    bboxes, labels, scores = model.predict(_images())
    for bbox, label, score, (H, W) in zip(bboxes, labels, scores, ((96, 128), (150, 70))):
        assert len(bbox) > 0
        assert (bbox >= 0).all() and (bbox[:, 0::2] <= H).all() and (bbox[:, 1::2] <= W).all()
        assert (numpy.diff(label) >= 0).all()
        for c in numpy.unique(label):
            assert (numpy.diff(score[label == c]) <= 0).all()


@pytest.mark.parametrize('shape, prepared', [((3, 96, 128), (3, 64, 85)),
                                             ((3, 50, 400), (3, 12, 96)),
                                             ((1, 64, 64), (3, 64, 64)),
                                             ((3, 1, 1), (3, 64, 64)),
                                             # a side that scales below one pixel keeps one
                                             ((3, 1, 300), (3, 1, 96)),
                                             ((1, 2000, 3), (3, 96, 1))])
def test_prepare_scales_as_chainercv(tiny_faster_rcnn, shape, prepared):
    model = tiny_faster_rcnn()
    img = numpy.full(shape, 100, numpy.float32)
    out = model.prepare(img)
    assert out.shape == prepared and out.dtype == numpy.float32
    numpy.testing.assert_allclose(out[:, 0, 0], 100 - model.mean.ravel(), rtol=1e-5)


def test_a_grayscale_image_is_its_three_channel_copy(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    model.score_thresh = 0.
    gray = _images()[0][:1]
    for a, b in zip(model.predict([gray]), model.predict([numpy.repeat(gray, 3, axis=0)])):
        numpy.testing.assert_array_equal(a[0], b[0])


def test_no_detection_gives_empty_arrays(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    model.score_thresh = 1.
    bboxes, labels, scores = model.predict(_images())
    for bbox, label, score in zip(bboxes, labels, scores):
        assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
        assert label.shape == (0,) and label.dtype == numpy.int32
        assert score.shape == (0,) and score.dtype == numpy.float32


def test_no_images_give_empty_lists(tiny_faster_rcnn):
    assert tiny_faster_rcnn().predict([]) == ([], [], [])


@pytest.mark.parametrize('shape', [(4, 32, 32), (2, 32, 32)])
def test_other_channel_counts_are_refused(tiny_faster_rcnn, shape):
    with pytest.raises(ValueError,
                       match=r'imgs\[0\] must have 3 channels \(RGB\) or 1 \(grayscale\)'):
        tiny_faster_rcnn().predict([numpy.zeros(shape, numpy.float32)])


@pytest.mark.parametrize('shape', [(3, 0, 32), (1, 32, 0)])
def test_images_without_pixels_are_refused(tiny_faster_rcnn, shape):
    with pytest.raises(ValueError, match=r'imgs\[1\] must have at least one pixel'):
        tiny_faster_rcnn().predict([_images()[0], numpy.zeros(shape, numpy.float32)])


def test_hybridized_predict_equals_eager(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    model.score_thresh = 0.
    imgs = _images(1)
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


def test_forward_gives_chainercvs_raw_outputs(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    x = model.prepare(_images()[0])[None]
    roi_cls_locs, roi_scores, rois, roi_indices = model(x, 1.)
    R = len(rois)
    assert 0 < R <= 40  # training's n_post_nms: the config is train
    assert roi_cls_locs.shape == (R, 16) and roi_scores.shape == (R, 4)
    assert rois.dtype == numpy.float32 and roi_indices.dtype == numpy.int32
    assert (roi_indices == 0).all()
