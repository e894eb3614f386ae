import numpy
import pytest

import framework.functions as F
from framework.functions.normalization.batch_normalization_folding import (
    fold_affine,
    fold_batch_normalization,
)
from framework.testing import assert_allclose, devices


def _parameters(seed, channels):
    rng = numpy.random.RandomState(seed)
    gamma, beta, mean = (rng.uniform(-1, 1, channels).astype(numpy.float32) for _ in range(3))
    var = rng.uniform(0.5, 2, channels).astype(numpy.float32)
    return gamma, beta, mean, var


@pytest.mark.parametrize('with_bias', [False, True])
@pytest.mark.parametrize('device', devices(), ids=str)
def test_the_folded_convolution_is_the_convolution_normalized(with_bias, device):
    rng = numpy.random.RandomState(0)
    x = device.send(rng.uniform(-1, 1, (2, 3, 6, 5)).astype(numpy.float32))
    W = device.send(rng.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32))
    b = device.send(rng.uniform(-1, 1, 4).astype(numpy.float32)) if with_bias else None
    gamma, beta, mean, var = (device.send(a) for a in _parameters(1, 4))
    expected = F.fixed_batch_normalization(F.convolution_2d(x, W, b, pad=1), gamma, beta,
                                           mean, var, eps=1e-3)
    folded_W, folded_b = fold_batch_normalization(W, b, gamma, beta, mean, var, 1e-3)
    assert folded_W.dtype == folded_b.dtype == numpy.float32
    y = F.convolution_2d(x, folded_W, folded_b, pad=1)
    assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-5)


def test_fold_affine_keeps_the_dtype_of_the_filters_and_leaves_them_unchanged():
    W = numpy.ones((2, 1, 1, 1), numpy.float16)
    scale, shift = numpy.array([2.0, 3.0]), numpy.array([1.0, -1.0])
    folded_W, folded_b = fold_affine(W, None, scale, shift)
    assert folded_W.dtype == folded_b.dtype == numpy.float16
    numpy.testing.assert_array_equal(folded_W.ravel(), [2, 3])
    numpy.testing.assert_array_equal(folded_b, [1, -1])
    numpy.testing.assert_array_equal(W, 1)
