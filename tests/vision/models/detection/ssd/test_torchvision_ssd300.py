"""torchvision's COCO SSD300 (``ssd300_vgg16``) converted into SSD300(n_fg_class=80): the
conversion of its state dict, parity with torchvision on weights made by the rule of the
fixtures (tests/data/tv_ssd300_vgg16.npz), and the manifest row."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.data.sample_photos import grace_hopper
from vision.datasets import coco_bbox_label_names
from vision.models import SSD300
from vision.models.detection.ssd.torchvision_ssd300 import (
    TORCHVISION_CLASSES,
    TORCHVISION_SSD300_KWARGS,
    UNUSED_COCO_IDS,
    convert_torchvision_ssd300,
)
from vision.utils.testing.parity import model_shapes, read_params_tsv, rule_state
from vision.weights import get_weight
from vision.weights.convert import converted_path

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'tv_ssd300_vgg16_params.tsv'


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'tv_ssd300_vgg16.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def spec():
    return get_weight('ssd300', 'torchvision-coco')


@pytest.fixture(scope='module')
def tv_state(fixture):
    """torchvision's state dict as the fixture's script filled it: the rule, and the unused
    categories' biases of the classification head at ``unused_bias``."""
    state = rule_state(TSV)
    for key, value in state.items():
        if key.startswith('head.classification_head.') and key.endswith('.bias'):
            value.reshape(-1, 91)[:, list(UNUSED_COCO_IDS)] = fixture['unused_bias']
    return state


@pytest.fixture(scope='module')
def ssd300_tv(tv_state, spec):
    """SSD300(n_fg_class=80) with torchvision's settings and its converted rule weights."""
    model = SSD300(n_fg_class=80, mean=spec.preprocessing.model_mean(),
                   **TORCHVISION_SSD300_KWARGS)
    NpzDeserializer(convert_torchvision_ssd300(tv_state, spec.preprocessing)).load(model)
    return model


def test_conversion_gives_every_parameter_of_ssd300(tv_state, spec):
    arrays = convert_torchvision_ssd300(tv_state, spec.preprocessing)
    shapes = {key: value.shape for key, value in arrays.items()}
    assert shapes == model_shapes(SSD300(n_fg_class=80))
    assert len(read_params_tsv(TSV)) == len(arrays) == 71


def test_the_classes_kept_are_cocos_80_in_torchvisions_order(fixture):
    categories = list(fixture['categories'])
    assert len(categories) == 91 and categories[0] == '__background__'
    assert [categories[i] for i in UNUSED_COCO_IDS] == ['N/A'] * 10
    assert [categories[i] for i in TORCHVISION_CLASSES[1:]] == list(coco_bbox_label_names)


def test_head_rows_are_rearranged_box_by_box(tv_state, spec):
    arrays = convert_torchvision_ssd300(tv_state, spec.preprocessing)
    loc = tv_state['head.regression_head.module_list.1.bias'].reshape(6, 4)
    numpy.testing.assert_array_equal(arrays['multibox/loc/1/b'].reshape(6, 4),
                                     loc[:, [1, 0, 3, 2]])
    conf = tv_state['head.classification_head.module_list.5.weight'].reshape(4, 91, 256, 3, 3)
    numpy.testing.assert_array_equal(arrays['multibox/conf/5/W'].reshape(4, 81, 256, 3, 3),
                                     conf[:, list(TORCHVISION_CLASSES)])
    numpy.testing.assert_array_equal(arrays['extractor/norm4/scale'],
                                     tv_state['backbone.scale_weight'])


def test_a_foreign_key_or_head_is_refused(tv_state, spec):
    with pytest.raises(ValueError, match="torchvision_ssd300: the checkpoint has the key "
                                         "'backbone.extra.5.0.weight'"):
        convert_torchvision_ssd300({**tv_state, 'backbone.extra.5.0.weight': numpy.zeros(1)},
                                   spec.preprocessing)
    narrow = {**tv_state, 'head.classification_head.module_list.0.bias': numpy.zeros(84)}
    with pytest.raises(ValueError, match='module_list.0 has 84 output channels, not a whole '
                                         'number of boxes of 91'):
        convert_torchvision_ssd300(narrow, spec.preprocessing)
    state = dict(tv_state)
    del state['backbone.scale_weight']
    with pytest.raises(ValueError, match='no backbone.scale_weight'):
        convert_torchvision_ssd300(state, spec.preprocessing)


def test_default_boxes_are_torchvisions(ssd300_tv, fixture):
    box = ssd300_tv.coder.default_bbox
    corners = numpy.concatenate((box[:, [1, 0]] - box[:, [3, 2]] / 2,
                                 box[:, [1, 0]] + box[:, [3, 2]] / 2), axis=1)
    numpy.testing.assert_allclose(corners, fixture['anchors'], atol=1e-4)


def test_the_image_is_prepared_as_torchvision_prepares_it(ssd300_tv, fixture):
    img = grace_hopper()
    prepared = ssd300_tv.prepare(img)
    assert prepared.shape == (3, 300, 300)
    numpy.testing.assert_allclose(prepared[:, fixture['prepared_rows']], fixture['prepared'],
                                  atol=1e-2)


@pytest.mark.slow
def test_raw_outputs_are_torchvisions(ssd300_tv, fixture):
    x = ssd300_tv.prepare(grace_hopper())[None]
    with framework.using_config('train', False), framework.no_backprop_mode():
        mb_locs, mb_confs = ssd300_tv(x)
    rows = fixture['rows']
    for actual, expected in (
            (mb_locs.array[0, rows], fixture['out/bbox_regression'][:, [1, 0, 3, 2]]),
            (mb_confs.array[0, rows], fixture['out/cls_logits'][:, list(TORCHVISION_CLASSES)])):
        assert actual.shape == expected.shape
        numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                      atol=1e-4 * numpy.abs(expected).max())


@pytest.mark.slow
@pytest.mark.parametrize('hybridize', [False, True])
def test_predict_is_torchvisions(ssd300_tv, fixture, hybridize):
    ssd300_tv.nms_thresh = float(fixture['nms_thresh'])
    ssd300_tv.score_thresh = float(fixture['score_thresh'])
    ssd300_tv.hybridize(hybridize)
    (bbox,), (label,), (score,) = ssd300_tv.predict([grace_hopper()])
    ssd300_tv.hybridize(False)
    # torchvision's boxes are (x1, y1, x2, y2), its labels category ids, its order by score;
    # ours are (y1, x1, y2, x2), labels 0 to 79, by label then score.
    expected_label = numpy.searchsorted(TORCHVISION_CLASSES, fixture['predict/labels']) - 1
    order = numpy.lexsort((-fixture['predict/scores'], expected_label))
    expected_bbox = fixture['predict/boxes'][order][:, [1, 0, 3, 2]]
    expected_label, expected_score = expected_label[order], fixture['predict/scores'][order]
    assert len(bbox) == len(expected_bbox) == fixture['detections_per_img']
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_allclose(score, expected_score, atol=1e-5)
    numpy.testing.assert_allclose(bbox, expected_bbox, atol=0.01)
    assert bbox.min() == 0


def test_manifest_row_is_torchvisions(spec):
    assert spec.source['url'] == ('https://download.pytorch.org/models/'
                                  'ssd300_vgg16_coco-b556d3b4.pth')
    assert (spec.sha256, spec.sha256_prefix) == (None, 'b556d3b4')
    assert spec.converter == 'torchvision_ssd300' and spec.n_class == 80
    assert spec.label_names == tuple(coco_bbox_label_names)
    numpy.testing.assert_allclose(spec.preprocessing.model_mean().ravel(),
                                  (122.99925, 116.9991, 103.9992), rtol=1e-6)
    numpy.testing.assert_allclose(spec.preprocessing.input_scale(), 1)
    assert [(s['metric'], s['value'], s['dataset']) for s in spec.scores] == [
        ('box mAP', 25.1, 'COCO val2017, 5,000 images')]


@pytest.mark.slow
def test_weights_by_name_bring_torchvisions_settings(vision_home, tv_state, spec, ssd300_tv):
    arrays = convert_torchvision_ssd300(tv_state, spec.preprocessing)
    path = pathlib.Path(converted_path(spec))
    path.parent.mkdir(parents=True)
    numpy.savez(path, **arrays)
    model = SSD300(pretrained_model='torchvision-coco')
    assert model.n_fg_class == 80 and model.weight_spec == spec
    assert (model.clip_bbox, model.topk_candidates, model.detections_per_img,
            model.antialias) == (True, 400, 200, False)
    assert model.coder.bbox_xform_clip == pytest.approx(numpy.log(1000 / 16))
    numpy.testing.assert_array_equal(model.coder.default_bbox, ssd300_tv.coder.default_bbox)
    numpy.testing.assert_array_equal(model.mean, spec.preprocessing.model_mean())
    numpy.testing.assert_array_equal(model.multibox.conf[5].W.array, arrays['multibox/conf/5/W'])
    given = SSD300(pretrained_model='torchvision-coco', topk_candidates=None, antialias=True)
    assert (given.topk_candidates, given.antialias, given.detections_per_img) == (None, True, 200)
