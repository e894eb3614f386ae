import math

import numpy
import pytest

import framework
from framework import backend, initializers
from framework.testing import FLOAT_DTYPES, devices

SHAPE = (64, 32, 3, 3)  # fan_in 288, fan_out 576
FAN_IN, FAN_OUT = 32 * 9, 64 * 9

CASES = [
    (initializers.Normal, {}, 0.05),
    (initializers.Normal, {'scale': 0.5}, 0.5),
    (initializers.LeCunNormal, {}, math.sqrt(1 / FAN_IN)),
    (initializers.LeCunNormal, {'scale': 2.0}, 2 * math.sqrt(1 / FAN_IN)),
    (initializers.GlorotNormal, {}, math.sqrt(2 / (FAN_IN + FAN_OUT))),
    (initializers.HeNormal, {}, math.sqrt(2 / FAN_IN)),
    (initializers.HeNormal, {'scale': 0.5, 'fan_option': 'fan_out'},
     0.5 * math.sqrt(2 / FAN_OUT)),
]


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('cls, kwargs, std', CASES)
def test_statistics(cls, kwargs, std, dtype, device):
    framework.random.seed(1)
    a = initializers.generate_array(cls(**kwargs, dtype=dtype), SHAPE, dtype=dtype,
                                    device=device)
    assert a.dtype == dtype and a.shape == SHAPE and backend.get_device_from_array(a) == device
    a = backend.to_cpu(a).astype(numpy.float64)
    n = a.size
    assert abs(a.mean()) < 4 * std / math.sqrt(n)
    assert abs(a.std() / std - 1) < 0.03


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('cls, kwargs, std', CASES)
def test_reproducible_from_the_seed(cls, kwargs, std, device):
    framework.random.seed(7)
    a = initializers.generate_array(cls(**kwargs), (5, 4, 3), device=device)
    b = initializers.generate_array(cls(**kwargs), (5, 4, 3), device=device)
    framework.random.seed(7)
    c = initializers.generate_array(cls(**kwargs), (5, 4, 3), device=device)
    assert not numpy.array_equal(backend.to_cpu(a), backend.to_cpu(b))
    numpy.testing.assert_array_equal(backend.to_cpu(a), backend.to_cpu(c))


def test_same_values_as_numpy_from_the_same_seed():
    framework.random.seed(3)
    a = initializers.generate_array(initializers.LeCunNormal(), (6, 5))
    expected = numpy.random.RandomState(3).normal(0.0, math.sqrt(1 / 5), (6, 5))
    numpy.testing.assert_array_equal(a, expected.astype(numpy.float32))


def test_rng_argument():
    a = numpy.empty((3, 4), numpy.float32)
    initializers.HeNormal(rng=numpy.random.RandomState(0))(a)
    expected = numpy.random.RandomState(0).normal(0.0, math.sqrt(2 / 4), (3, 4))
    numpy.testing.assert_array_equal(a, expected.astype(numpy.float32))
    b = initializers.generate_array(initializers.Normal(rng=numpy.random.RandomState(0)), (3,),
                                    device='@emulated')
    numpy.testing.assert_array_equal(backend.to_cpu(b), numpy.random.RandomState(0).normal(
        0.0, 0.05, 3).astype(numpy.float32))


def test_bad_fan_option():
    with pytest.raises(ValueError, match="fan_option must be 'fan_in' or 'fan_out'"):
        initializers.HeNormal(fan_option='fan_avg')


def test_scaled_initializers_need_a_matrix():
    with pytest.raises(ValueError, match='at least two axes'):
        initializers.LeCunNormal()(numpy.empty(3, numpy.float32))
