import numpy
import pytest

import framework.random
from framework import backend
from framework.testing import devices


@pytest.mark.parametrize('device', devices(), ids=str)
def test_generator_draws_arrays_of_the_module(device):
    state = framework.random.get_random_state(device.xp)
    assert framework.random.get_random_state(device.xp) is state
    assert backend.get_device_from_array(state.random_sample((2, 3))) == device


def test_seed_restarts_every_generator():
    framework.random.seed(7)
    first = framework.random.get_random_state(numpy).random_sample(4)
    framework.random.seed(7)
    numpy.testing.assert_array_equal(
        framework.random.get_random_state(numpy).random_sample(4), first)
    numpy.testing.assert_array_equal(first, numpy.random.RandomState(7).random_sample(4))


def test_seed_none_draws_fresh_entropy():
    framework.random.seed(None)
    a = framework.random.get_random_state(numpy).random_sample(4)
    framework.random.seed(None)
    assert not numpy.array_equal(framework.random.get_random_state(numpy).random_sample(4), a)


def test_seed_rejects_bad_values():
    with pytest.raises(TypeError, match='seed: seed must be an int or None, but got float'):
        framework.random.seed(1.5)
    with pytest.raises(ValueError, match=r'seed: seed must be in \[0, 2\*\*32\), but got -1'):
        framework.random.seed(-1)
