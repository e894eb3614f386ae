"""LightHeadRCNNResNet101 against ChainerCV's (master's, after 0.13.1)
``LightHeadRCNNResNet101(n_fg_class=80, min_size=160, max_size=256)`` with the weights
rebuilt by the fixtures' rule, the output layers of the RPN and the head scaled as the fixture
script scales them (``tests/data/chainercv_light_head_rcnn_resnet101*``): the parameter names
and shapes, the raw outputs of ``model(x, scale)`` for the prepared noise image and
``predict`` with the ``'evaluate'`` preset."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.models.detection.light_head_rcnn import LightHeadRCNNResNet101
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_light_head_rcnn_resnet101_params.tsv'
# as OUTPUT_SCALES of tests/data/make_chainercv_light_head_rcnn_fixtures.py
OUTPUT_SCALES = {'rpn/loc/': 1e-4, 'rpn/score/': 1e-3, 'head/cls_loc/': 1e-3,
                 'head/score/': 1e-3}

pytestmark = pytest.mark.slow


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_light_head_rcnn_resnet101.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def model(fixture):
    model = LightHeadRCNNResNet101(n_fg_class=80, min_size=int(fixture['min_size']),
                                   max_size=int(fixture['max_size']))
    assert model_shapes(model) == tsv_shapes(TSV)
    state = rule_npz_state(TSV)
    for key in state:
        for layer, factor in OUTPUT_SCALES.items():
            if key.startswith(layer):
                state[key] *= numpy.float32(factor)
    NpzDeserializer(state, ignore_names=lambda key: key.endswith('/N')).load(model)
    return model


def _assert_parity(actual, expected):
    """The fixtures' tolerance: ``rtol=1e-3`` and ``atol=1e-4`` of the output's scale."""
    numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


def test_raw_outputs(model, fixture):
    x = model.prepare(fixture['input'])[None]
    assert x.shape == (1, 3, 160, 213)
    with framework.using_config('train', False), framework.no_backprop_mode():
        roi_cls_locs, roi_scores, rois, roi_indices = model(x, float(fixture['scale']))
    _assert_parity(rois, fixture['out/rois'])
    numpy.testing.assert_array_equal(roi_indices, fixture['out/roi_indices'])
    rows = fixture['out/rows']
    _assert_parity(roi_cls_locs.array[rows], fixture['out/roi_cls_locs'])
    _assert_parity(roi_scores.array[rows], fixture['out/roi_scores'])


def test_predict(model, fixture):
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh, model.max_n_predict) == (
        fixture['nms_thresh'], fixture['score_thresh'], fixture['max_n_predict'])
    bboxes, labels, scores = model.predict([fixture['input']])
    numpy.testing.assert_array_equal(labels[0], fixture['predict/label'])
    numpy.testing.assert_allclose(scores[0], fixture['predict/score'], atol=1e-4)
    numpy.testing.assert_allclose(bboxes[0], fixture['predict/bbox'], atol=0.5)
