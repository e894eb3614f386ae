"""YOLOv2Tiny, YOLOv2 and YOLOv3 against ChainerCV 0.13.1's with the weights rebuilt by the
fixtures' rule: the parameter names and shapes (those of ChainerCV's published NPZ files), the
raw outputs for the letterboxed image and ``predict`` with the fixtures' thresholds.

``chainercv_yolo_v3.npz`` is the shared fixture (a 416x416 image); the YOLOv2 ones were made
by ``tests/data/make_chainercv_yolo_fixtures.py`` on a tall noise image, which the letterbox
shrinks and pads."""

from __future__ import annotations

import pytest

import framework
from vision.models.detection.yolo import YOLOv2, YOLOv2Tiny, YOLOv3
from vision.utils.testing.parity import model_shapes, tsv_shapes

from .conftest import (
    DATA,
    assert_predict_is_chainercvs,
    assert_raw_outputs_are_chainercvs,
    load_fixture,
    rule_model,
)

MODELS = {'yolo_v2_tiny': YOLOv2Tiny, 'yolo_v2': YOLOv2, 'yolo_v3': YOLOv3}
# The slow ones: YOLOv2 and YOLOv3 take seconds to build, YOLOv3's predict suppresses 64,512
# detections.
PARAMS = [pytest.param(name, marks=pytest.mark.slow) if name != 'yolo_v2_tiny' else name
          for name in MODELS]


@pytest.fixture(scope='module', params=PARAMS)
def name(request):
    return request.param


@pytest.fixture(scope='module')
def model(name):
    return rule_model(MODELS[name], name)


@pytest.fixture(scope='module')
def fixture(name):
    return load_fixture(name)


def test_parameters_are_chainercvs(name, model):
    shapes = model_shapes(model)
    expected = {k: v for k, v in tsv_shapes(DATA / f'chainercv_{name}_params.tsv').items()
                if not k.endswith('/N')}
    assert shapes == expected


def test_raw_outputs_are_chainercvs(model, fixture):
    x, _ = model.prepare(fixture['input'])
    assert x.shape == (3, 416, 416)
    with framework.using_config('train', False), framework.no_backprop_mode():
        outputs = model(x[None])
    assert_raw_outputs_are_chainercvs([o.array for o in outputs], fixture)


@pytest.mark.parametrize('hybridize', [False, pytest.param(True, marks=pytest.mark.slow)])
def test_predict_is_chainercvs(name, model, fixture, hybridize):
    model.nms_thresh = float(fixture['nms_thresh'])
    model.score_thresh = float(fixture['score_thresh'])
    model.hybridize(hybridize)
    try:
        (bbox,), (label,), (score,) = model.predict([fixture['input']])
    finally:
        model.hybridize(False)
    assert len(bbox) > 50
    # YOLOv3's raw outputs are of ChainerCV's within 5e-5 (logits up to 30), its scores within
    # 7e-6: ties are looser, and four of its 64,512 detections are decided by an overlap at
    # the suppression's threshold (the hybridized graph on a GPU flips them).
    assert_predict_is_chainercvs(bbox, label, score, fixture,
                                 tie=1e-5 if name == 'yolo_v3' else 1e-6,
                                 flips=16 if name == 'yolo_v3' else 2)
