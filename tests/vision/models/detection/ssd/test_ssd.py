import numpy
import pytest

import framework
import framework.functions as F
from vision.utils.testing import assert_is_detection_link


def _images(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 40, 56)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 24, 24)).astype(numpy.float32)]


def test_keeps_the_detection_contract_with_both_presets(tiny_ssd):
    model = tiny_ssd()
    for preset in ('visualize', 'evaluate'):
        model.use_preset(preset)
        assert_is_detection_link(model, 3)


def test_presets_set_chainercvs_thresholds(tiny_ssd):
    model = tiny_ssd()
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.6)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.01)
    with pytest.raises(ValueError, match="'visualize' or 'evaluate', but got 'fast'"):
        model.use_preset('fast')


@pytest.mark.parametrize('options, decode_options', [
    ({}, {}),
    ({'clip_bbox': True, 'topk_candidates': 7, 'detections_per_img': 12},
     {'clip_size': 32, 'topk_candidates': 7, 'detections_per_img': 12}),
])
def test_predict_is_the_decoded_raw_output_in_image_pixels(tiny_ssd, options, decode_options):
    model = tiny_ssd(**options)
    model.use_preset('evaluate')
    imgs = _images()
    bboxes, labels, scores = model.predict(imgs)
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        x = model.prepare(img)[None]
        with framework.using_config('train', False), framework.no_backprop_mode():
            mb_locs, mb_confs = model(x)
        bbox32, label32, score32 = model.coder.decode(mb_locs.array[0], mb_confs.array[0],
                                                      0.45, 0.01, **decode_options)
        H, W = img.shape[1:]
        scale = numpy.array((H, W, H, W), numpy.float32) / 32
        numpy.testing.assert_allclose(bbox, bbox32 * scale, rtol=1e-5, atol=1e-4)
        numpy.testing.assert_array_equal(label, label32)
        numpy.testing.assert_allclose(score, score32, rtol=1e-5)
        assert len(bbox) > 0


def test_without_antialias_images_are_resized_by_plain_bilinear_interpolation(tiny_ssd):
    img = _images()[0]
    prepared = tiny_ssd(antialias=False).prepare(img)
    expected = F.resize_images(img[None], (32, 32), align_corners=False).array[0]
    numpy.testing.assert_allclose(prepared, expected - tiny_ssd().mean, rtol=1e-6, atol=1e-4)
    assert numpy.abs(tiny_ssd().prepare(img) - prepared).max() > 1


def test_grayscale_images_are_replicated_to_rgb(tiny_ssd):
    model = tiny_ssd()
    model.use_preset('evaluate')
    gray = _images()[0][:1]
    rgb = numpy.repeat(gray, 3, axis=0)
    for a, b in zip(model.predict([gray]), model.predict([rgb])):
        numpy.testing.assert_allclose(a[0], b[0], rtol=1e-5, atol=1e-5)


def test_integer_images_are_taken(tiny_ssd):
    model = tiny_ssd()
    model.use_preset('evaluate')
    img = _images()[0].astype(numpy.uint8)
    for a, b in zip(model.predict([img]), model.predict([img.astype(numpy.float32)])):
        numpy.testing.assert_array_equal(a[0], b[0])


def test_no_detection_gives_empty_arrays(tiny_ssd):
    model = tiny_ssd()
    model.score_thresh = 1.1
    bboxes, labels, scores = model.predict(_images())
    for bbox, label, score in zip(bboxes, labels, scores):
        assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
        assert label.shape == (0,) and label.dtype == numpy.int32
        assert score.shape == (0,) and score.dtype == numpy.float32


def test_no_images_give_empty_lists(tiny_ssd):
    assert tiny_ssd().predict([]) == ([], [], [])


@pytest.mark.parametrize('shape', [(3, 1, 1), (3, 1, 300), (1, 2000, 3)])
def test_images_of_any_size_are_detected_in_their_pixels(tiny_ssd, shape):
    model = tiny_ssd()
    model.use_preset('evaluate')
    img = numpy.full(shape, 100, numpy.float32)
    (bbox,), (label,), (score,) = model.predict([img])
    square = numpy.full((3, 32, 32), 100, numpy.float32)
    (bbox32,), (label32,), (score32,) = model.predict([square])
    scale = numpy.array(shape[1:] * 2, numpy.float32) / 32
    assert len(bbox) > 0 and bbox.dtype == numpy.float32
    numpy.testing.assert_allclose(bbox, bbox32 * scale, rtol=1e-5, atol=1e-4)
    numpy.testing.assert_array_equal(label, label32)
    numpy.testing.assert_allclose(score, score32, rtol=1e-5)


@pytest.mark.parametrize('shape', [(4, 20, 20), (2, 20, 20), (20, 20), (3, 0, 20), (1, 20, 0)])
def test_bad_images_are_refused(tiny_ssd, shape):
    with pytest.raises(ValueError, match=r'imgs\[0\]'):
        tiny_ssd().predict([numpy.zeros(shape, numpy.float32)])


def test_hybridized_predict_equals_eager(tiny_ssd):
    model = tiny_ssd()
    model.use_preset('evaluate')
    imgs = _images(1)
    eager = model.predict(imgs)
    model.hybridize()
    assert model._static_graph is not None
    hybrid = model.predict(imgs)
    for a, b in zip(hybrid, eager):
        for x, y in zip(a, b):
            assert x.dtype == y.dtype and x.shape == y.shape
            numpy.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-4)
    model.hybridize(False)
    for a, b in zip(model.predict(imgs), eager):
        for x, y in zip(a, b):
            numpy.testing.assert_array_equal(x, y)


def test_n_fg_class(tiny_ssd):
    assert tiny_ssd(5).n_fg_class == 5
    assert tiny_ssd().insize == 32
