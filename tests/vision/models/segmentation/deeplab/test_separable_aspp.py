"""SeparableASPP: its five branches, the image-level one equal at every position, and the
dropout of training."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.models.segmentation.deeplab import SeparableASPP


def _aspp():
    numpy.random.seed(0)
    framework.random.seed(0)
    return SeparableASPP(8, 4, dilate_list=(1, 2, 3))


def _x():
    return numpy.random.RandomState(0).standard_normal((2, 8, 7, 9)).astype(numpy.float32)


def test_output_keeps_the_size_with_out_channels():
    with framework.using_config('train', False):
        y = _aspp()(_x())
    assert y.shape == (2, 4, 7, 9) and y.dtype == numpy.float32


def test_image_pooling_is_the_convolved_mean_at_every_position():
    aspp = _aspp()
    x = _x()
    with framework.using_config('train', False):
        pooled = aspp.image_pooling(x).array
        expected = aspp.image_pooling_conv(x.mean(axis=(2, 3), keepdims=True)).array
    assert pooled.shape == (2, 4, 7, 9)
    numpy.testing.assert_allclose(pooled, numpy.broadcast_to(expected, pooled.shape),
                                  rtol=1e-5, atol=1e-6)


def test_the_projection_sees_the_five_branches_and_drops_out_in_training_only():
    aspp = _aspp()
    assert aspp.proj.conv.W.shape == (4, 20, 1, 1)
    assert [aspp[f'atrous{i}'].depthwise.dilate for i in (1, 2, 3)] == [(1, 1), (2, 2), (3, 3)]
    x = _x()
    with framework.using_config('train', False):
        first, second = aspp(x).array, aspp(x).array
    numpy.testing.assert_array_equal(first, second)
    with framework.using_config('train', True):
        trained = aspp(x).array
    assert ((trained == 0) & (first != 0)).any()


def test_dilate_list_must_have_three_entries():
    with pytest.raises(ValueError, match=r'dilate_list must have 3 entries, but got \(1, 2\)'):
        SeparableASPP(8, 4, dilate_list=(1, 2))
