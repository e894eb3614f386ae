"""The fused epilogue of a convolution on a GPU: bias, residual and activation in one pass, as
the NumPy ops one after another (NaN kept)."""

import itertools

import numpy
import pytest

from framework.cuda.conv_epilogue import conv_epilogue
from framework.testing import attr


def _expected(y, b, residual, activation):
    if b is not None:
        y = y + b
    if residual is not None:
        y = y + residual
    if activation is None:
        return y
    return numpy.maximum(y, 0) if activation[0] == 'relu' else numpy.clip(y, 0, activation[1])


@attr.gpu
@pytest.mark.parametrize('bias, residual, activation', list(itertools.product(
    [False, True], [False, True], [None, ('relu',), ('clip', 6.0)])))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_the_epilogue_is_the_ops_one_after_another(bias, residual, activation, dtype):
    import cupy
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-8, 8, (2, 3, 4, 5)).astype(dtype)
    y[0, 0, 0, 0] = numpy.nan
    b = rng.uniform(-1, 1, 5).astype(dtype) if bias else None
    r = rng.uniform(-1, 1, y.shape).astype(dtype) if residual else None
    on_gpu = cupy.asarray(y)
    conv_epilogue(on_gpu, None if b is None else cupy.asarray(b),
                  None if r is None else cupy.asarray(r), activation)
    numpy.testing.assert_allclose(on_gpu.get(), _expected(y, b, r, activation), rtol=1e-6)
