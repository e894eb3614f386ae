"""The YOLO detectors on tiny models (width 2, 64x64 input): the ``predict`` contract, the
presets, ChainerCV's decoding and letterbox, images of any shape, bad input, the static graph
and the arguments."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.models import get_model
from vision.models.detection.yolo import (
    Darknet19Extractor,
    Darknet53Extractor,
    DarknetExtractor,
    YOLOv2,
    YOLOv2Tiny,
    YOLOv3,
)
from vision.transforms import resize_bbox, resize_contain, translate_bbox
from vision.utils import non_maximum_suppression
from vision.utils.testing import assert_is_detection_link

CLASSES = [YOLOv2Tiny, YOLOv2, YOLOv3]


def _images(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 40, 56)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 150, 90)).astype(numpy.float32)]


def _raw(model, img):
    x, param = model.prepare(img)
    with framework.using_config('train', False), framework.no_backprop_mode():
        locs, objs, confs = model(x[None])
    return locs.array[0], objs.array[0], confs.array[0], param


def _chainercv_decode(model, loc, obj, conf):
    """ChainerCV's ``_decode`` of YOLOv2 (anchors in cells, softmax) or YOLOv3 (anchors in
    pixels, sigmoid), written out as ChainerCV does it."""
    v2 = not isinstance(model, YOLOv3)
    grids = (model.extractor.grid,) if v2 else model.extractor.grids
    anchors = (model._anchors,) if v2 else model._anchors
    default_bbox, step = [], []
    for grid, grid_anchors in zip(grids, anchors):
        for v in range(grid):
            for u in range(grid):
                for h, w in grid_anchors:
                    default_bbox.append((v, u, h, w))
                    step.append(model.insize / grid)
    raw_bbox = numpy.array(default_bbox, numpy.float32)
    step = numpy.array(step, numpy.float32)
    raw_bbox[:, :2] += 1 / (1 + numpy.exp(-loc[:, :2]))
    if not v2:
        raw_bbox[:, :2] *= step[:, None]
    raw_bbox[:, 2:] *= numpy.exp(loc[:, 2:])
    raw_bbox[:, :2] -= raw_bbox[:, 2:] / 2
    raw_bbox[:, 2:] += raw_bbox[:, :2]
    if v2:
        raw_bbox *= step[:, None]
        conf = numpy.exp(conf)
        conf /= conf.sum(axis=1, keepdims=True)
    else:
        conf = 1 / (1 + numpy.exp(-conf))
    raw_score = (1 / (1 + numpy.exp(-obj)))[:, None] * conf
    bbox, label, score = [], [], []
    for lb in range(model.n_fg_class):
        mask = raw_score[:, lb] >= model.score_thresh
        bbox_l, score_l = raw_bbox[mask], raw_score[mask, lb]
        keep = non_maximum_suppression(bbox_l, model.nms_thresh, score_l)
        bbox.append(bbox_l[keep])
        label.append(numpy.full(len(keep), lb, numpy.int32))
        score.append(score_l[keep])
    return numpy.concatenate(bbox), numpy.concatenate(label), numpy.concatenate(score)


def test_registered_as_detectors():
    for name, cls in (('yolo_v2', YOLOv2), ('yolo_v2_tiny', YOLOv2Tiny), ('yolo_v3', YOLOv3)):
        assert get_model(name) is cls and cls.task == 'detection'


@pytest.mark.parametrize('cls', CLASSES)
def test_keeps_the_detection_contract_with_both_presets(tiny_yolo, cls):
    model = tiny_yolo(cls)
    for preset in ('visualize', 'evaluate'):
        model.use_preset(preset)
        assert_is_detection_link(model, 3)


def test_presets_set_chainercvs_thresholds(tiny_yolo):
    model = tiny_yolo(YOLOv3)
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.5)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.005)
    with pytest.raises(ValueError, match="'visualize' or 'evaluate', but got 'fast'"):
        model.use_preset('fast')


@pytest.mark.parametrize('cls, n_box', [(YOLOv2Tiny, 2 * 2 * 5), (YOLOv2, 2 * 2 * 5),
                                        (YOLOv3, (2 * 2 + 4 * 4 + 8 * 8) * 3)])
def test_raw_outputs_have_chainercvs_shapes(tiny_yolo, cls, n_box):
    loc, obj, conf, _ = _raw(tiny_yolo(cls, n_fg_class=4), _images()[0])
    assert loc.shape == (n_box, 4) and obj.shape == (n_box,) and conf.shape == (n_box, 4)
    assert loc.dtype == obj.dtype == conf.dtype == numpy.float32


@pytest.mark.parametrize('cls', CLASSES)
def test_decode_is_chainercvs(tiny_yolo, cls):
    model = tiny_yolo(cls)
    model.score_thresh = 0.05
    loc, obj, conf, _ = _raw(model, _images()[0])
    bbox, label, score = model.decode(loc, obj, conf)
    expected = _chainercv_decode(model, loc, obj, conf)
    assert len(bbox) > 5
    numpy.testing.assert_allclose(bbox, expected[0], rtol=1e-6, atol=1e-4)
    numpy.testing.assert_array_equal(label, expected[1])
    numpy.testing.assert_allclose(score, expected[2], rtol=1e-6)
    assert bbox.dtype == score.dtype == numpy.float32 and label.dtype == numpy.int32


def test_decode_bbox_follows_the_cell_and_the_anchor(tiny_yolo):
    model = tiny_yolo(YOLOv3)
    loc = numpy.zeros(((4 + 16 + 64) * 3, 4), numpy.float32)
    loc[5] = (numpy.log(3), 0, numpy.log(2), 0)  # cell (0, 1) of the 2x2 map, its third anchor
    bbox = model.decode_bbox(loc)
    h, w = model._anchors[0][2]
    sigmoid = 1 / (1 + numpy.exp(-numpy.log(3)))
    centre = numpy.array([sigmoid * 32, 1.5 * 32])
    numpy.testing.assert_allclose(bbox[5], numpy.concatenate(
        (centre - (h, w / 2), centre + (h, w / 2))), rtol=1e-6)


@pytest.mark.parametrize('cls', CLASSES)
def test_predict_maps_the_decoded_boxes_back_as_chainercv(tiny_yolo, cls):
    model = tiny_yolo(cls)
    model.score_thresh = 0.05
    imgs = _images()
    bboxes, labels, scores = model.predict(imgs)
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        loc, obj, conf, param = _raw(model, img)
        expected, expected_label, expected_score = model.decode(loc, obj, conf)
        size = img.shape[1:]
        expected = translate_bbox(expected, -model.insize / 2, -model.insize / 2)
        expected = resize_bbox(expected, param['scaled_size'], size)
        expected = translate_bbox(expected, size[0] / 2, size[1] / 2)
        assert len(bbox) > 0 and bbox.dtype == numpy.float32
        numpy.testing.assert_allclose(bbox, expected, rtol=1e-5, atol=1e-4)
        numpy.testing.assert_array_equal(label, expected_label)
        numpy.testing.assert_array_equal(score, expected_score)


def test_prepare_letterboxes_as_chainercv(tiny_yolo):
    model = tiny_yolo(YOLOv3)
    for img in _images():
        x, param = model.prepare(img)
        expected, expected_param = resize_contain(img / 255, (64, 64), fill=0.5,
                                                  return_param=True)
        numpy.testing.assert_allclose(x, expected, rtol=1e-6, atol=1e-7)
        assert param == expected_param and x.dtype == numpy.float32
    x, param = model.prepare(_images()[1])
    assert param == {'y_offset': 0, 'x_offset': 13, 'scaled_size': (64, 38)}
    assert (x[:, :, :13] == 0.5).all() and (x[:, :, 51:] == 0.5).all()


def test_small_images_are_not_enlarged(tiny_yolo):
    x, param = tiny_yolo(YOLOv2Tiny).prepare(numpy.full((3, 5, 7), 255, numpy.float32))
    assert param == {'y_offset': 29, 'x_offset': 28, 'scaled_size': (5, 7)}
    assert x[:, 29:34, 28:35].min() == 1 and (x == 1).sum() == 3 * 5 * 7


def test_grayscale_images_are_replicated_to_rgb(tiny_yolo):
    model = tiny_yolo(YOLOv2Tiny)
    model.use_preset('evaluate')
    gray = _images()[1][:1]
    for a, b in zip(model.predict([gray]), model.predict([numpy.repeat(gray, 3, axis=0)])):
        numpy.testing.assert_array_equal(a[0], b[0])


@pytest.mark.parametrize('shape', [(3, 1, 1), (3, 1, 2000), (1, 3000, 2)])
def test_images_of_any_shape_are_detected(tiny_yolo, shape):
    model = tiny_yolo(YOLOv2Tiny)
    model.use_preset('evaluate')
    (bbox,), (label,), (score,) = model.predict([numpy.full(shape, 100, numpy.float32)])
    assert len(bbox) > 0 and bbox.dtype == numpy.float32 and numpy.isfinite(bbox).all()


def test_no_detection_gives_empty_arrays(tiny_yolo):
    model = tiny_yolo(YOLOv3)
    model.score_thresh = 1.1
    bboxes, labels, scores = model.predict(_images())
    for bbox, label, score in zip(bboxes, labels, scores):
        assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
        assert label.shape == (0,) and label.dtype == numpy.int32
        assert score.shape == (0,) and score.dtype == numpy.float32


def test_no_images_give_empty_lists(tiny_yolo):
    assert tiny_yolo(YOLOv2).predict([]) == ([], [], [])


@pytest.mark.parametrize('shape', [(4, 20, 20), (2, 20, 20), (20, 20), (3, 0, 20), (1, 20, 0)])
def test_bad_images_are_refused(tiny_yolo, shape):
    with pytest.raises(ValueError, match=r'YOLOv3\.predict: imgs\[0\]'):
        tiny_yolo(YOLOv3).predict([numpy.zeros(shape, numpy.float32)])


@pytest.mark.parametrize('cls', CLASSES)
def test_hybridized_predict_equals_eager(tiny_yolo, cls):
    model = tiny_yolo(cls)
    model.use_preset('evaluate')
    imgs = _images(1)
    eager = model.predict(imgs)
    model.hybridize()
    assert model._static_graph is not None
    for a, b in zip(model.predict(imgs), eager):
        for x, y in zip(a, b):
            assert x.dtype == y.dtype and x.shape == y.shape
            numpy.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-4)
    model.hybridize(False)
    for a, b in zip(model.predict(imgs), eager):
        for x, y in zip(a, b):
            numpy.testing.assert_array_equal(x, y)


@pytest.mark.parametrize('extractor, insize, shapes', [
    (Darknet19Extractor, 96, [(2, 64, 3, 3)]),
    (DarknetExtractor, 64, [(2, 128, 2, 2)]),
    (Darknet53Extractor, 64, [(2, 32, 2, 2), (2, 16, 4, 4), (2, 8, 8, 8)]),
])
def test_extractors_give_maps_of_stride_32_16_8(extractor, insize, shapes):
    link = extractor(2, insize)
    with framework.using_config('train', False), framework.no_backprop_mode():
        ys = link(numpy.zeros((2, 3, insize, insize), numpy.float32))
    ys = ys if isinstance(ys, list) else [ys]
    assert [y.shape for y in ys] == shapes


@pytest.mark.parametrize('cls', CLASSES)
@pytest.mark.parametrize('insize', [0, 100, 32.0, True])
def test_insize_must_be_a_multiple_of_32(cls, insize):
    with pytest.raises(ValueError, match=rf'{cls.__name__}: insize must be a positive multiple '
                                         rf'of 32 .*but got {insize!r}'):
        cls(n_fg_class=3, base_channels=2, insize=insize)


@pytest.mark.parametrize('kwargs, message', [
    ({}, 'n_fg_class must be given when pretrained_model is None'),
    ({'n_fg_class': 0}, 'n_fg_class must be a positive int, but got 0'),
    ({'n_fg_class': '3'}, "n_fg_class must be a positive int, but got '3'"),
    ({'n_fg_class': 3, 'base_channels': 0}, 'base_channels must be a positive int'),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=f'YOLOv2Tiny: {message}'):
        YOLOv2Tiny(**kwargs)


def test_n_fg_class_and_insize(tiny_yolo):
    model = tiny_yolo(YOLOv3, n_fg_class=5, insize=96)
    assert model.n_fg_class == 5 and model.insize == 96
    assert model.extractor.grids == (3, 6, 12)
