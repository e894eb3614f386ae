"""Shared by the classifier tests: the parity fixtures (weights rebuilt from parameter names by
the rule of :mod:`vision.utils.testing.parity`), loading them, and running a model."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.utils.testing.parity import read_params_tsv, rule_state

DATA = pathlib.Path(__file__).resolve().parents[3] / 'data'


@pytest.fixture(scope='session')
def parity():
    """The input image ``(3, 224, 224)`` and the peers' outputs for it, by name
    (``chainercv_resnet50/fc6``, ``tv_resnet50/logits``...)."""
    with numpy.load(DATA / 'classification_parity.npz') as f:
        return dict(f)


def _model_shapes(model) -> dict[str, tuple[int, ...]]:
    """Every parameter and floating-point persistent of a model by NPZ key, with its shape
    (None while uninitialized)."""
    shapes = {name.lstrip('/'): None if p.array is None else p.array.shape
              for name, p in model.namedparams()}
    for name, value in model.namedpersistents():
        if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
            shapes[name.lstrip('/')] = value.shape
    return shapes


def _chainercv_shapes(tsv: str) -> dict[str, tuple[int, ...]]:
    """The NPZ keys and shapes that ChainerCV's published weights of a model have."""
    return {name.lstrip('/'): shape for name, shape, _ in read_params_tsv(DATA / tsv)}


@pytest.fixture
def load_chainercv_rule():
    """``load(model, tsv)``: fills ``model`` with ChainerCV's parameters of ``tsv`` made by
    the rule, after checking that the model has exactly those names and shapes."""
    def load(model, tsv):
        expected = _chainercv_shapes(tsv)
        assert _model_shapes(model).keys() == expected.keys()
        state = {name.lstrip('/'): value for name, value in rule_state(DATA / tsv).items()}
        NpzDeserializer(state, ignore_names=lambda key: key.endswith('/N')).load(model)
        assert _model_shapes(model) == expected
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


@pytest.fixture
def model_shapes():
    """``model_shapes(model)``: its parameters and float persistents by NPZ key, with shapes."""
    return _model_shapes


@pytest.fixture
def chainercv_shapes():
    """``chainercv_shapes(tsv)``: the NPZ keys and shapes of ChainerCV's weights."""
    return _chainercv_shapes


@pytest.fixture
def run():
    """``run(model, x)``: the outputs in evaluation mode, as arrays."""
    return _run


@pytest.fixture
def assert_parity():
    """``assert_parity(actual, expected)`` with the fixtures' tolerance."""
    return _assert_parity
