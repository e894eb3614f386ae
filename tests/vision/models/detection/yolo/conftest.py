"""Shared by the YOLO tests: the models filled by the fixtures' rule, the comparison of their
detections with ChainerCV's, and tiny YOLOs (width 2, 64x64 input) that run the detectors'
logic in milliseconds."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework.random
from framework.serializers import NpzDeserializer
from vision.utils import bbox_iou
from vision.utils.testing.parity import rule_npz_state

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'


def rule_model(cls, name: str):
    """``cls(n_fg_class=20)`` filled by the fixtures' rule from ``chainercv_<name>_params.tsv``
    (Chainer's batch-normalization counters ``N`` are no arrays of this project)."""
    model = cls(n_fg_class=20)
    NpzDeserializer(rule_npz_state(DATA / f'chainercv_{name}_params.tsv'),
                    ignore_names=lambda key: key.endswith('/N')).load(model)
    return model


def load_fixture(name: str) -> dict:
    """``chainercv_<name>.npz``, with its ``input`` made again from ``seed`` and ``shape``
    where it records only those (``make_chainercv_yolo_fixtures.py``)."""
    with numpy.load(DATA / f'chainercv_{name}.npz') as f:
        fixture = dict(f)
    if 'input' not in fixture:
        rng = numpy.random.RandomState(int(fixture['seed']))
        fixture['input'] = rng.uniform(0, 255, tuple(fixture['shape'])).astype(numpy.float32)
    return fixture


def assert_raw_outputs_are_chainercvs(outputs, fixture) -> None:
    """The fixtures' tolerance: ``rtol=1e-3`` and ``atol=1e-4`` of the output's scale."""
    for actual, key in zip(outputs, ('locs', 'objs', 'confs')):
        expected = fixture[f'out/{key}']
        assert actual.shape == expected.shape, key
        numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                      atol=1e-4 * numpy.abs(expected).max(), err_msg=key)


def assert_predict_is_chainercvs(bbox, label, score, fixture, tie=1e-6, flips=2) -> None:
    """Class by class, each detection is matched to one of ChainerCV's of a score within
    ``tie`` and a box within 0.5 px (plus 1e-4 of its coordinates: random weights give boxes
    millions of pixels wide, whose coordinates carry the raw outputs' relative tolerance), so
    that tied scores may come in either order.

    Up to ``flips`` detections in all may go unmatched on either side where the suppression
    decided on an overlap at its threshold, which rounding puts on either side (a box of
    ChainerCV's overlapping a kept one by an IoU of 0.4499978 at ``nms_thresh`` 0.45): each
    overlaps a box of higher score of the other side by ``nms_thresh`` or more, within 1e-4.
    """
    expected_bbox, expected_label = fixture['predict/bbox'], fixture['predict/label']
    expected_score = fixture['predict/score']
    nms_thresh = float(fixture['nms_thresh'])
    assert numpy.all(numpy.diff(label) >= 0) and label.dtype == numpy.int32
    unmatched = 0
    for c in numpy.union1d(label, expected_label):
        actual, actual_score = bbox[label == c], score[label == c]
        expected = expected_bbox[expected_label == c]
        expected_c = expected_score[expected_label == c]
        assert numpy.all(numpy.diff(actual_score) <= 0)
        tol = 0.5 + 1e-4 * numpy.abs(expected)
        taken = numpy.zeros(len(actual), bool)
        missing = []
        for i, s in enumerate(expected_c):
            lo = numpy.searchsorted(-actual_score, -s - tie, side='left')
            hi = numpy.searchsorted(-actual_score, -s + tie, side='right')
            candidates = numpy.arange(lo, hi)[~taken[lo:hi]]
            close = candidates[(numpy.abs(actual[candidates] - expected[i]) <= tol[i]).all(1)]
            if len(close):
                taken[close[0]] = True
            else:
                missing.append(i)
        extra = numpy.nonzero(~taken)[0]
        # A box goes unmatched when a box of higher score of the other side suppressed it.
        for box, s, others, others_score in (
                *((expected[i], expected_c[i], actual, actual_score) for i in missing),
                *((actual[j], actual_score[j], expected, expected_c) for j in extra)):
            higher = others[others_score > s + tie].astype(numpy.float64)
            assert len(higher) and bbox_iou(box[None].astype(numpy.float64), higher).max() \
                >= nms_thresh - 1e-4, (c, box, s)
        unmatched += len(missing) + len(extra)
    assert unmatched <= flips, unmatched


@pytest.fixture
def tiny_yolo():
    """``tiny_yolo(cls, n_fg_class=3, seed=0, **kwargs)``: ``cls`` of width 2 at 64x64, its
    weights drawn with ``seed``."""
    def build(cls, n_fg_class=3, seed=0, **kwargs):
        numpy.random.seed(seed)
        framework.random.seed(seed)  # the initializers' generator
        return cls(n_fg_class=n_fg_class, **{'base_channels': 2, 'insize': 64, **kwargs})
    return build
