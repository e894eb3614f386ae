import numpy
import pytest

from framework.testing.emulated_device import EmulatedArray, EmulatedDevice, xp


def test_arrays_refuse_to_mix_with_host_arrays():
    e = xp.ones(3)
    host = numpy.ones(3)
    for mix in (lambda: e + host, lambda: host + e, lambda: host * e,
                lambda: numpy.concatenate([e, host]), lambda: xp.concatenate([e, host]),
                lambda: numpy.add(e, 1, out=host)):
        with pytest.raises(TypeError, match='cannot be mixed with a host'):
            mix()
    with pytest.raises(TypeError, match='cannot be mixed'):
        e[...] = host


def test_scalars_mix_freely():
    e = xp.arange(3.0)
    assert isinstance(e * 2, EmulatedArray)
    assert isinstance(numpy.float32(2) * e, EmulatedArray)
    assert isinstance(xp.exp(e), EmulatedArray)
    e[1] = 5.0
    assert float(e[1]) == 5.0


def test_results_stay_on_the_device():
    e = xp.arange(6.0).reshape(2, 3)
    for result in (e.sum(), e.max(), e[0, 0], xp.sum(e), numpy.mean(e), e.T, e.astype('f'),
                   e[:, 1], xp.zeros((2,)), xp.where(e > 2, e, 0.0), xp.broadcast_to(e, (4, 2, 3))):
        assert isinstance(result, EmulatedArray), type(result)
    assert e.sum().ndim == 0


def test_namespace_is_not_numpy_but_behaves_like_it():
    assert xp is not numpy
    assert xp.float32 is numpy.float32
    assert xp.ndarray is EmulatedArray
    assert isinstance(xp.ones(3), xp.ndarray)
    numpy.testing.assert_array_equal(EmulatedDevice().send(xp.linspace(0, 1, 3)).view(
        numpy.ndarray), [0, 0.5, 1])


def test_asarray_transfers_host_arrays():
    e = xp.asarray(numpy.arange(3))
    assert isinstance(e, EmulatedArray)


def test_random_generators_produce_device_arrays():
    rs = xp.random.RandomState(0)
    assert isinstance(rs.uniform(size=3), EmulatedArray)
    assert isinstance(xp.random.normal(size=(2, 2)), EmulatedArray)
    a = xp.random.RandomState(1).uniform(size=4)
    b = xp.random.RandomState(1).uniform(size=4)
    assert bool((a == b).all())


def test_device_send_copies():
    host = numpy.arange(3.0)
    e = EmulatedDevice().send(host)
    e[0] = 7
    assert host[0] == 0
    assert EmulatedDevice().send(e) is e


def test_host_scalar_on_the_left_of_a_comparison():
    e = xp.ones(3, numpy.float16)
    assert isinstance(numpy.float16(0.5) <= e, EmulatedArray)
