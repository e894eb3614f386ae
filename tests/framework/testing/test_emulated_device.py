import copy
import pickle

import numpy
import pytest

from framework.testing import cupy_namespace
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice, xp

pytestmark = pytest.mark.cupy_refusals


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
    assert xp.newaxis is None and xp.pi == numpy.pi
    assert xp.ndarray is EmulatedArray
    assert isinstance(xp.ones(3), xp.ndarray)
    numpy.testing.assert_array_equal(EmulatedDevice().send(xp.linspace(0, 1, 3)).get(
        ), [0, 0.5, 1])


def test_asarray_transfers_host_arrays():
    e = xp.asarray(numpy.arange(3))
    assert isinstance(e, EmulatedArray)


def test_random_generators_produce_device_arrays():
    rs = xp.random.RandomState(0)
    assert isinstance(rs.uniform(size=3), EmulatedArray)
    assert isinstance(xp.random.normal(size=(2, 2)), EmulatedArray)
    with pytest.raises(NotImplementedError, match='cupy.random.Generator is not emulated'):
        xp.random.default_rng(0)
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


def test_implicit_conversion_to_the_host_is_refused_as_cupy_does():
    e = xp.arange(3.0)
    for convert in (numpy.asarray, numpy.array, lambda a: numpy.array([a, a])):
        with pytest.raises(TypeError, match='Implicit conversion to a NumPy array'):
            convert(e)
    with pytest.raises(TypeError, match='0-dimensional'):
        float(e[:1])
    assert float(e[1]) == 1.0 and int(e.sum()) == 3 and bool(e[2])
    with pytest.raises(TypeError):
        [0, 1, 2][xp.ones((), numpy.int64)]
    assert not isinstance(e, numpy.ndarray)


def test_explicit_transfers_copy():
    e = xp.arange(3.0)
    host = e.get()
    assert type(host) is numpy.ndarray
    host[0] = 9
    assert e.tolist() == [0.0, 1.0, 2.0]
    e.set(numpy.ones(3))
    numpy.testing.assert_array_equal(xp.asnumpy(e), [1, 1, 1])


def test_names_cupy_lacks_are_refused():
    with pytest.raises(AttributeError, match='cupy.geomspace: CuPy .* has no such name'):
        _ = xp.geomspace
    with pytest.raises(AttributeError, match="'cupy.ndarray' object has no attribute 'setflags'"):
        _ = xp.ones(2).setflags
    with pytest.raises(TypeError, match='cupy.nanquantile: CuPy has no such function'):
        numpy.nanquantile(xp.ones(2), 0.5)


def test_keywords_cupy_lacks_are_refused():
    e = xp.arange(4.0).reshape(2, 2)
    refused = [
        (lambda: xp.sum(e, initial=0), "cupy.sum: .*unexpected keyword argument 'initial'"),
        (lambda: e.max(where=e > 0), "cupy.ndarray.max: .*'where'"),
        (lambda: numpy.sum(e, where=e > 0), "cupy.sum: .*'where'"),
        (lambda: xp.lib.stride_tricks.as_strided(e, (2,), (8,), writeable=False),
         r"cupy.lib.stride_tricks.as_strided: .*'writeable'.*\(x, shape=, strides=\)"),
        (lambda: xp.exp(e, where=e > 0), r"ufuncs do not take \['where'\]"),
        (lambda: numpy.add(e, 1, where=e > 0), r"ufuncs do not take \['where'\]"),
        (lambda: xp.maximum(e, [0.0, 0.0]), 'take arrays and scalars, not list'),
    ]
    for call, message in refused:
        with pytest.raises(TypeError, match=message):
            call()
    assert xp.lib.stride_tricks.as_strided(e, (2,), (16,)).tolist() == [0.0, 2.0]


def test_refusals_are_recorded_even_when_caught():
    before = len(cupy_namespace.recorded_refusals())
    try:
        xp.sum(xp.ones(2), initial=1)
    except TypeError:
        pass
    assert 'initial' in cupy_namespace.recorded_refusals()[before]
    assert 'cupy.sum(initial)' in cupy_namespace.recorded_calls()


def test_operators_defer_to_higher_priority_operands_as_cupy_does():
    class Wrapper:
        __array_priority__ = 200

        def __radd__(self, other):
            return 'reflected'
    assert xp.ones(2) + Wrapper() == 'reflected'


def test_arrays_pickle_and_copy_on_the_device():
    e = xp.arange(3.0)
    for clone in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), copy.copy(e)):
        assert isinstance(clone, EmulatedArray) and clone.tolist() == [0.0, 1.0, 2.0]
    e += 1
    assert e.tolist() == [1.0, 2.0, 3.0]
