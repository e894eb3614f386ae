"""Shared by the FCIS tests: ChainerCV's recorded outputs (``make_chainercv_fcis_fixtures.py``)
and a small FCIS ResNet-101 whose features stay near 1."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
import framework.random
from framework import initializers
from framework.serializers import NpzDeserializer
from vision.models import FCISResNet101
from vision.utils.testing.parity import rule_npz_state

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_fcis_resnet101_params.tsv'


@pytest.fixture(scope='session')
def chainercv_fcis():
    """The arrays of ``tests/data/chainercv_fcis_resnet101.npz``."""
    with numpy.load(DATA / 'chainercv_fcis_resnet101.npz') as f:
        return dict(f)


def chainercv_model(fixture, weights: bool = True, **kwargs) -> FCISResNet101:
    """``FCISResNet101(n_fg_class=20)`` as ``make_chainercv_fcis_fixtures.py`` builds it
    (``kwargs`` added), with the weights it fills: the rule's, the kernels it names scaled."""
    kwargs['proposal_creator_params'] = {'n_test_post_nms': int(fixture['n_test_post_nms']),
                                         **kwargs.get('proposal_creator_params', {})}
    model = FCISResNet101(n_fg_class=20, min_size=int(fixture['min_size']),
                          max_size=int(fixture['max_size']), **kwargs)
    if weights:
        state = rule_npz_state(TSV)
        for name in fixture['scaled']:
            state[str(name)] = state[str(name)] * fixture['feature_scale']
        NpzDeserializer(state, ignore_names=lambda key: key.endswith('/N')).load(model)
    return model


def chainercv_image(fixture) -> numpy.ndarray:
    """The fixture's noise image, made again from its seed and shape."""
    return numpy.random.RandomState(int(fixture['seed'])).uniform(
        0, 255, tuple(fixture['shape'])).astype(numpy.float32)


def small_fcis(**kwargs) -> FCISResNet101:
    """FCIS ResNet-101 of ``base_channels`` 4 for 3 classes on 64-96 pixel images, whose
    kernels are drawn from a normal of deviation 0.1: its 33 bottlenecks keep the features
    near 1 (He's initialisation, with the running statistics of a fresh batch normalisation,
    makes them grow to thousands, the RPN's offsets overflow and one region is left), and the
    RPN and the head give offsets and scores far enough from 0 that the regions differ."""
    numpy.random.seed(0)
    framework.random.seed(0)
    kwargs = {'n_fg_class': 3, 'min_size': 64, 'max_size': 96, 'base_channels': 4,
              'resnet_initialW': initializers.Normal(0.1),
              'rpn_initialW': initializers.Normal(0.1), 'head_initialW': initializers.Normal(0.1),
              **kwargs}
    return FCISResNet101(**kwargs)
