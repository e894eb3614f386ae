"""Xception65: ChainerCV's parameters under the extractor's path and the strides of its two
outputs."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework import initializers
from vision.models.segmentation.deeplab import Xception65
from vision.utils.testing.parity import model_shapes, tsv_shapes

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_deeplab_v3plus_xception65_params.tsv'
PREFIX = 'feature_extractor/'


@pytest.fixture(scope='module')
def extractor():
    return Xception65(initialW=initializers.Zero())


def test_parameters_are_those_of_chainercvs_feature_extractor(extractor):
    expected = {key[len(PREFIX):]: shape for key, shape in tsv_shapes(TSV).items()
                if key.startswith(PREFIX)}
    assert model_shapes(extractor) == expected
    assert len([k for k in expected if k.startswith('middleflow_block')]) == 16 * 3 * 10


@pytest.mark.parametrize('size, low, high', [((32, 32), (8, 8), (4, 4)),
                                             ((33, 47), (9, 12), (5, 6))])
def test_low_level_features_are_a_quarter_and_high_level_an_eighth(extractor, size, low,
                                                                   high):
    x = numpy.zeros((1, 3) + size, numpy.float32)
    with framework.using_config('train', False):
        lowlevel, highlevel = extractor(x)
    assert lowlevel.shape == (1, 256) + low and highlevel.shape == (1, 2048) + high


def test_mean_is_the_middle_of_the_pixel_range():
    assert Xception65.mean.shape == (3, 1, 1) and Xception65.mean.dtype == numpy.float32
    assert (Xception65.mean == 127.5).all()


def test_bn_kwargs_reach_every_batch_normalization():
    extractor = Xception65(bn_kwargs={'eps': 1e-3, 'decay': 0.9997},
                           initialW=initializers.Zero())
    bns = [link for _, link in extractor.namedlinks()
           if type(link).__name__ == 'BatchNormalization']
    # two convolutions; entry, middle and exit blocks: two per separable convolution, one per
    # skip convolution
    assert len(bns) == 2 + 3 * (3 * 2 + 1) + 16 * 3 * 2 + (3 * 2 + 1) + 3 * 2
    assert all(bn.eps == 1e-3 and bn.decay == 0.9997 for bn in bns)
