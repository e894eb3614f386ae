import math

import numpy
import pytest

import framework
from framework import backend, initializers
from framework.testing import FLOAT_DTYPES, devices

_TOLERANCE = {numpy.float16: 5e-3, numpy.float32: 1e-5, numpy.float64: 1e-12}


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('shape', [(4, 4), (3, 7), (7, 3), (4, 2, 3, 3), (20, 2, 2)])
def test_rows_or_columns_are_orthonormal_times_scale(shape, dtype, device):
    a = initializers.generate_array(initializers.Orthogonal(scale=2.0), shape, dtype=dtype,
                                    device=device)
    assert a.dtype == dtype and a.shape == shape
    assert backend.get_device_from_array(a) == device
    m = backend.to_cpu(a).astype(numpy.float64).reshape(shape[0], -1)
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    numpy.testing.assert_allclose(gram, 4 * numpy.eye(len(gram)), atol=4 * _TOLERANCE[dtype])


def test_default_scale_and_uniqueness_of_the_decomposition():
    framework.random.seed(0)
    a = initializers.generate_array(initializers.Orthogonal(), (3, 5))
    numpy.testing.assert_allclose(a @ a.T, 1.21 * numpy.eye(3), atol=1e-5)
    # QR of the transposed draws with R's diagonal made positive, as Chainer does
    draws = numpy.random.RandomState(0).normal(size=(3, 5))
    q, r = numpy.linalg.qr(draws.T)
    expected = (q * numpy.copysign(1.1, numpy.diag(r))).T
    numpy.testing.assert_allclose(a, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_same_values_on_every_device_from_a_seed(device):
    framework.random.seed(4)
    a = initializers.generate_array(initializers.Orthogonal(), (3, 3), device=device)
    framework.random.seed(4)
    b = initializers.generate_array(initializers.Orthogonal(), (3, 3))
    numpy.testing.assert_array_equal(backend.to_cpu(a), b)


def test_zero_dimensional():
    values = {float(backend.to_cpu(initializers.generate_array(
        initializers.Orthogonal(scale=3.0), (), device='@emulated'))) for _ in range(20)}
    assert values == {3.0, -3.0}


@pytest.mark.parametrize('mode, shape', [
    ('projection', (5, 3)), ('embedding', (3, 5)), ('basis', (3, 5)), ('basis', (5, 3)),
])
def test_modes_refuse_shapes(mode, shape):
    with pytest.raises(ValueError, match=f"mode '{mode}' cannot fill shape"):
        initializers.Orthogonal(mode=mode)(numpy.empty(shape, numpy.float32))


@pytest.mark.parametrize('mode, shape', [
    ('projection', (3, 5)), ('embedding', (5, 3)), ('basis', (4, 2, 2)),
])
def test_modes_accept_shapes(mode, shape):
    a = numpy.empty(shape, numpy.float32)
    initializers.Orthogonal(mode=mode, rng=numpy.random.RandomState(0))(a)
    assert math.isfinite(a.sum())


def test_bad_mode_and_empty_array():
    with pytest.raises(ValueError, match="mode must be one of 'auto'"):
        initializers.Orthogonal(mode='square')
    with pytest.raises(ValueError, match='must not be empty'):
        initializers.Orthogonal()(numpy.empty((0, 3), numpy.float32))
