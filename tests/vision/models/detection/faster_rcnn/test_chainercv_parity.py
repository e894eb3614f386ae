"""FasterRCNNVGG16 against ChainerCV 0.13.1's ``FasterRCNNVGG16(n_fg_class=20)`` with the
weights rebuilt by the fixtures' rule (``tests/data/chainercv_faster_rcnn_vgg16*``): the
parameter names and shapes, the raw outputs of ``model(x)`` for the prepared image (scales
left at 1, as the fixture was made) and ``predict`` with the fixture's thresholds."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.models.detection.faster_rcnn import FasterRCNNVGG16
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_faster_rcnn_vgg16_params.tsv'

pytestmark = pytest.mark.slow


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_faster_rcnn_vgg16.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def model():
    model = FasterRCNNVGG16(n_fg_class=20)
    assert model_shapes(model) == tsv_shapes(TSV)
    NpzDeserializer(rule_npz_state(TSV)).load(model)
    return model


def _assert_parity(actual, expected):
    """The fixtures' tolerance: ``rtol=1e-3`` and ``atol=1e-4`` of the output's scale."""
    numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


def test_raw_outputs(model, fixture):
    x = model.prepare(fixture['input'])[None]
    assert x.shape == (1, 3, 600, 800)
    with framework.using_config('train', False), framework.no_backprop_mode():
        roi_cls_locs, roi_scores, rois, roi_indices = model(x)
    _assert_parity(rois, fixture['out/rois'])
    numpy.testing.assert_array_equal(roi_indices, fixture['out/roi_indices'])
    _assert_parity(roi_cls_locs.array, fixture['out/roi_cls_locs'])
    _assert_parity(roi_scores.array, fixture['out/roi_scores'])


def test_predict(model, fixture):
    model.nms_thresh = float(fixture['nms_thresh'])
    model.score_thresh = float(fixture['score_thresh'])
    bboxes, labels, scores = model.predict([fixture['input']])
    numpy.testing.assert_array_equal(labels[0], fixture['predict/label'])
    numpy.testing.assert_allclose(scores[0], fixture['predict/score'], atol=1e-4)
    numpy.testing.assert_allclose(bboxes[0], fixture['predict/bbox'], atol=0.5)
