import numpy
import pytest

from framework import backend, initializers
from framework.testing import FLOAT_DTYPES, devices


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('initializer, value', [
    (initializers.Zero(), 0.0), (initializers.One(), 1.0), (initializers.NaN(), numpy.nan),
    (initializers.Constant(-2.5), -2.5),
])
def test_scalar_constants(initializer, value, dtype, device):
    a = initializers.generate_array(initializer, (3, 2), dtype=dtype, device=device)
    assert a.dtype == dtype and a.shape == (3, 2)
    numpy.testing.assert_array_equal(backend.to_cpu(a), value)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_array_constant_is_broadcast_and_sent_to_the_device(device):
    row = numpy.array([1, 2, 3], numpy.float64)
    a = initializers.generate_array(initializers.Constant(row), (2, 3), device=device)
    assert a.dtype == numpy.float32
    numpy.testing.assert_array_equal(backend.to_cpu(a), [[1, 2, 3], [1, 2, 3]])


def test_constant_needs_a_scalar_or_an_array():
    with pytest.raises(TypeError, match='fill_value'):
        initializers.Constant([1, 2])


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_identity(dtype, device):
    a = initializers.generate_array(initializers.Identity(scale=3), (4, 4), dtype=dtype,
                                    device=device)
    assert a.dtype == dtype
    numpy.testing.assert_array_equal(backend.to_cpu(a), 3 * numpy.eye(4))


@pytest.mark.parametrize('shape', [(3,), (2, 3), (2, 2, 2)])
def test_identity_needs_a_square_matrix(shape):
    with pytest.raises(ValueError, match='square matrix'):
        initializers.Identity()(numpy.empty(shape, numpy.float32))
