"""Shared by the classifier tests: the parity fixtures (weights rebuilt from parameter names by
the rule of :mod:`vision.utils.testing.parity`), loading them, and running a model."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.utils.testing.parity import model_shapes, rule_npz_state, rule_state, tsv_shapes

DATA = pathlib.Path(__file__).resolve().parents[3] / 'data'


@pytest.fixture(scope='session')
def parity():
    """The input image ``(3, 224, 224)`` and the peers' outputs for it, by name
    (``chainercv_resnet50/fc6``, ``tv_resnet50/logits``...)."""
    with numpy.load(DATA / 'classification_parity.npz') as f:
        return dict(f)


@pytest.fixture
def load_chainercv_rule():
    """``load(model, tsv)``: fills ``model`` with ChainerCV's parameters of ``tsv`` made by
    the rule, after checking that the model has exactly those names and shapes."""
    def load(model, tsv):
        expected = tsv_shapes(DATA / tsv)
        assert model_shapes(model).keys() == expected.keys()
        NpzDeserializer(rule_npz_state(DATA / tsv),
                        ignore_names=lambda key: key.endswith('/N')).load(model)
        assert model_shapes(model) == expected
    return load


@pytest.fixture
def torchvision_rule():
    """``state(tsv)``: a torchvision state dict made by the rule."""
    return lambda tsv: rule_state(DATA / tsv)


def _run(model, x):
    """The model's output(s) for the batch ``x`` in evaluation mode, as arrays."""
    with framework.using_config('train', False), framework.no_backprop_mode():
        y = model(x)
    return tuple(v.array for v in y) if isinstance(y, tuple) else y.array


def _assert_parity(actual, expected):
    """The fixtures' tolerance: ``rtol=1e-3`` and ``atol=1e-4`` of the output's scale."""
    numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


@pytest.fixture(name='model_shapes')
def model_shapes_fixture():
    """``model_shapes(model)``: its parameters and float persistents by NPZ key, with shapes."""
    return model_shapes


@pytest.fixture
def chainercv_shapes():
    """``chainercv_shapes(tsv)``: the NPZ keys and shapes of ChainerCV's weights."""
    return lambda tsv: tsv_shapes(DATA / tsv)


@pytest.fixture
def run():
    """``run(model, x)``: the outputs in evaluation mode, as arrays."""
    return _run


@pytest.fixture
def assert_parity():
    """``assert_parity(actual, expected)`` with the fixtures' tolerance."""
    return _assert_parity
