import math

import numpy
import pytest

import framework
from framework import backend, initializers
from framework.testing import FLOAT_DTYPES, devices

SHAPE = (64, 32, 3, 3)  # fan_in 288, fan_out 576
FAN_IN, FAN_OUT = 32 * 9, 64 * 9

# initializer, keyword arguments, half-width of the interval
CASES = [
    (initializers.Uniform, {}, 0.05),
    (initializers.Uniform, {'scale': 2.0}, 2.0),
    (initializers.LeCunUniform, {}, math.sqrt(3 / FAN_IN)),
    (initializers.GlorotUniform, {}, math.sqrt(6 / (FAN_IN + FAN_OUT))),
    (initializers.GlorotUniform, {'scale': 3.0}, 3 * math.sqrt(6 / (FAN_IN + FAN_OUT))),
    (initializers.HeUniform, {}, math.sqrt(6 / FAN_IN)),
]


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('cls, kwargs, bound', CASES)
def test_statistics(cls, kwargs, bound, dtype, device):
    framework.random.seed(2)
    a = initializers.generate_array(cls(**kwargs), SHAPE, dtype=dtype, device=device)
    assert a.dtype == dtype and backend.get_device_from_array(a) == device
    a = backend.to_cpu(a).astype(numpy.float64)
    assert numpy.abs(a).max() <= bound * (1 + 1e-3)
    assert numpy.abs(a).max() > 0.99 * bound
    std = bound / math.sqrt(3)
    assert abs(a.mean()) < 4 * std / math.sqrt(a.size)
    assert abs(a.std() / std - 1) < 0.03


def test_same_values_as_numpy_from_the_same_seed():
    framework.random.seed(5)
    a = initializers.generate_array(initializers.GlorotUniform(), (6, 4))
    s = math.sqrt(6 / 10)
    expected = numpy.random.RandomState(5).uniform(-s, s, (6, 4)).astype(numpy.float32)
    numpy.testing.assert_array_equal(a, expected)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_rng_argument(device):
    initializer = initializers.LeCunUniform(rng=numpy.random.RandomState(0))
    a = initializers.generate_array(initializer, (3, 4), device=device)
    s = math.sqrt(3 / 4)
    expected = numpy.random.RandomState(0).uniform(-s, s, (3, 4)).astype(numpy.float32)
    numpy.testing.assert_array_equal(backend.to_cpu(a), expected)
