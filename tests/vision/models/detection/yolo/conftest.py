"""Shared by the YOLO tests: the models filled by the fixtures' rule, the comparison of their
detections with ChainerCV's, and tiny YOLOs (width 2, 64x64 input) that run the detectors'
logic in milliseconds."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework.random
from framework.serializers import NpzDeserializer
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


def assert_predict_is_chainercvs(bbox, label, score, fixture, tie=1e-6) -> None:
    """The same labels, scores within 1e-4 and boxes within 0.5 px (plus 1e-4 of their
    coordinates: random weights give boxes millions of pixels wide, whose coordinates carry
    the raw outputs' relative tolerance); boxes whose scores are tied (within ``tie``) may
    come in either order."""
    expected_bbox, expected_label = fixture['predict/bbox'], fixture['predict/label']
    expected_score = fixture['predict/score']
    assert bbox.shape == expected_bbox.shape
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_allclose(score, expected_score, atol=1e-4)
    tol = 0.5 + 1e-4 * numpy.abs(expected_bbox)
    for i in numpy.nonzero((numpy.abs(bbox - expected_bbox) > tol).any(axis=1))[0]:
        tied = (label == label[i]) & (numpy.abs(score - expected_score[i]) < tie)
        assert tied.sum() > 1, i
        assert (numpy.abs(bbox[tied] - expected_bbox[i]) <= tol[i]).all(axis=1).any(), i


@pytest.fixture
def tiny_yolo():
    """``tiny_yolo(cls, n_fg_class=3, seed=0, **kwargs)``: ``cls`` of width 2 at 64x64, its
    weights drawn with ``seed``."""
    def build(cls, n_fg_class=3, seed=0, **kwargs):
        numpy.random.seed(seed)
        framework.random.seed(seed)  # the initializers' generator
        return cls(n_fg_class=n_fg_class, **{'base_channels': 2, 'insize': 64, **kwargs})
    return build
