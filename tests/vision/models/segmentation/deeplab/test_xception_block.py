"""XceptionBlock: its three separable convolutions, skip connections and what it returns."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.functions as F
from vision.models.segmentation.deeplab import XceptionBlock


def _x(shape=(2, 4, 9, 11)):
    return numpy.random.RandomState(0).standard_normal(shape).astype(numpy.float32)


def _block(**kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)
    return XceptionBlock(4, (6, 8, 10), **kwargs)


def _run(block, x):
    with framework.using_config('train', False):
        h, separable2 = block(x)
    return h.array, separable2.array


@pytest.mark.parametrize('stride, size', [(1, (9, 11)), (2, (5, 6))])
def test_the_last_separable_convolution_strides(stride, size):
    h, separable2 = _run(_block(stride=stride), _x())
    assert h.shape == (2, 10) + size and h.dtype == numpy.float32
    assert separable2.shape == (2, 8, 9, 11)


def test_separable2_is_returned_before_its_activation_and_given_activated_to_separable3():
    block = _block()
    x = _x()
    h, separable2 = _run(block, x)
    assert (separable2 < 0).any()
    with framework.using_config('train', False):
        expected = block.separable3(F.relu(separable2)).array + block.conv(x).array
    numpy.testing.assert_allclose(h, expected, rtol=1e-5, atol=1e-5)


def test_sum_adds_the_input_and_none_adds_nothing():
    x = _x((1, 4, 7, 7))
    summed = XceptionBlock(4, (6, 8, 4), skip_type='sum')
    none = XceptionBlock(4, (6, 8, 4), skip_type='none')
    for name in ('separable1', 'separable2', 'separable3'):
        none[name].copyparams(summed[name])
    assert not hasattr(summed, 'conv') and not hasattr(none, 'conv')
    numpy.testing.assert_allclose(_run(summed, x)[0], _run(none, x)[0] + x, rtol=1e-5,
                                  atol=1e-5)


def test_activation_last_applies_the_relu_to_the_output_only():
    x = _x()
    relus = (F.relu, F.relu, F.relu)
    block = _block(skip_type='none', activ_first=False, dw_activ_list=relus,
                   pw_activ_list=relus)
    h, separable2 = _run(block, x)
    assert h.min() >= 0 and separable2.min() < 0  # separable2's output before its ReLU
    with framework.using_config('train', False):
        numpy.testing.assert_array_equal(separable2, block.separable2(block.separable1(x)).array)
        expected = F.relu(block.separable3(F.relu(separable2))).array
    numpy.testing.assert_allclose(h, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('kwargs, message', [
    ({'skip_type': 'add'}, "skip_type must be one of .*, but got 'add'"),
    ({'depthlist': (6, 8)}, r'depthlist must have 3 entries, but got \(6, 8\)'),
    ({'pw_activ_list': (None,)}, 'pw_activ_list must have 3 entries'),
])
def test_bad_arguments_are_refused(kwargs, message):
    kwargs = {'in_channels': 4, 'depthlist': (6, 8, 10), **kwargs}
    with pytest.raises(ValueError, match=message):
        XceptionBlock(**kwargs)
