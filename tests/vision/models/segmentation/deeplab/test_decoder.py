"""Decoder: the pooled features resized to the low-level ones, concatenated before their
projection, and the class scores at their resolution."""

from __future__ import annotations

import numpy

import framework
import framework.functions as F
from vision.models.segmentation.deeplab import Decoder


def test_logits_are_at_the_resolution_of_the_low_level_features():
    numpy.random.seed(0)
    framework.random.seed(0)
    decoder = Decoder(8, 3, 2, 5)
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 8, 9, 12)).astype(numpy.float32)
    pool = rng.standard_normal((2, 8, 5, 6)).astype(numpy.float32)
    assert decoder.conv1.depthwise.W.shape == (10, 1, 3, 3)
    with framework.using_config('train', False):
        logits = decoder(x, pool).array
        concat = F.concat((F.resize_images(pool, (9, 12)), decoder.feature_proj(x)), axis=1)
        expected = decoder.conv_logits(decoder.conv2(decoder.conv1(concat))).array
    assert logits.shape == (2, 3, 9, 12) and logits.dtype == numpy.float32
    numpy.testing.assert_allclose(logits, expected, rtol=1e-5, atol=1e-6)


def test_bn_kwargs_reach_the_separable_convolutions_only():
    decoder = Decoder(8, 3, 2, 5, bn_kwargs={'eps': 1e-5})
    assert decoder.conv1.dw_bn.eps == decoder.conv2.pw_bn.eps == 1e-5
    assert decoder.feature_proj.bn.eps == 2e-5  # ChainerCV's default, as its weights need
