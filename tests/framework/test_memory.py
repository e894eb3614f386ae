"""The storage pool: blocks reused, returned when arrays die, statistics, limits, threads."""

import gc
import threading

import numpy
import pytest

from framework import memory
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice


@pytest.fixture
def pool():
    return memory.HostMemoryPool()


def _address(array):
    return array.__array_interface__['data'][0]


@pytest.mark.parametrize('nbytes, expected', [
    (1, 512), (512, 512), (513, 1024), (4096, 4096), (4097, 5120), (5121, 6144),
    (1 << 20, 1 << 20), ((1 << 20) + 1, 1310720), (7 << 20, 7 << 20)])
def test_size_classes(nbytes, expected):
    assert memory.size_class(nbytes) == expected


def test_alloc_gives_a_writable_aligned_contiguous_array(pool):
    a = pool.alloc((3, 4), numpy.float16)
    assert type(a) is numpy.ndarray and a.shape == (3, 4) and a.dtype == numpy.float16
    assert a.flags.c_contiguous and a.flags.writeable
    assert _address(a) % 64 == 0
    a[...] = 1
    assert a.sum() == 12
    assert pool.alloc(5, 'i4').shape == (5,)


def test_block_returns_when_the_array_dies_and_is_reused(pool):
    a = pool.alloc((1000,), numpy.float32)
    address = _address(a)
    assert (pool.used_bytes(), pool.free_bytes()) == (4096, 0)
    del a
    assert (pool.used_bytes(), pool.free_bytes()) == (0, 4096)
    b = pool.alloc((32, 32), numpy.float32)
    assert _address(b) == address
    assert (pool.n_hits, pool.n_misses) == (1, 1)


def test_a_view_keeps_the_block(pool):
    a = pool.alloc((10, 100), numpy.float64)
    view = a[2:].T
    del a
    assert pool.used_bytes() == 8192
    view[...] = 0
    del view
    assert pool.used_bytes() == 0


def test_a_cycle_returns_its_block_when_collected(pool):
    a = pool.alloc((100,), numpy.float64)
    cycle = [a]
    cycle.append(cycle)
    del a, cycle
    gc.collect()
    assert pool.used_bytes() == 0 and pool.free_bytes() == 1024


def test_free_returns_at_once(pool):
    a = pool.alloc((256,), numpy.float32)
    pool.free(a)
    assert (pool.used_bytes(), pool.free_bytes()) == (0, 1024)
    with pytest.raises(ValueError, match='free: the array was not allocated by this pool, or '
                                         'was freed already'):
        pool.free(a)
    with pytest.raises(ValueError, match='not allocated by this pool'):
        pool.free(numpy.empty(3))
    with pytest.raises(ValueError, match='not allocated by this pool'):
        memory.HostMemoryPool().free(pool.alloc(3))
    del a
    assert pool.free_bytes() == 1024


def test_a_larger_block_up_to_twice_the_size_serves_a_request(pool):
    big = pool.alloc((1 << 20,), numpy.uint8)
    address = _address(big)
    del big
    medium = pool.alloc((600_000,), numpy.uint8)
    assert _address(medium) == address and pool.used_bytes() == 1 << 20
    del medium
    small = pool.alloc((300_000,), numpy.uint8)
    assert _address(small) != address
    assert (pool.n_hits, pool.n_misses) == (1, 2)


def test_limit_caps_the_cached_bytes(pool):
    arrays = [pool.alloc((1024,), numpy.uint8) for _ in range(4)]
    pool.set_limit(2048)
    del arrays
    assert pool.free_bytes() == 2048 and pool.get_limit() == 2048
    pool.set_limit(1024)
    assert pool.free_bytes() == 1024
    pool.set_limit(0)
    assert pool.free_bytes() == 0
    pool.alloc(10)
    pool.alloc(10)
    assert pool.n_hits == 0 and pool.free_bytes() == 0
    with pytest.raises(ValueError, match='set_limit: the limit must be a non-negative int '
                                         r'\(bytes\) or None, but got -1'):
        pool.set_limit(-1)


def test_free_all_blocks(pool):
    arrays = [pool.alloc((n,), numpy.uint8) for n in (100, 10_000, 1_000_000)]
    kept = pool.alloc(10)
    del arrays
    assert pool.free_bytes() > 0
    pool.free_all_blocks()
    assert pool.free_bytes() == 0 and pool.used_bytes() == 512
    assert pool.total_bytes() == 512
    del kept


def test_empty_arrays_take_no_block(pool):
    a = pool.alloc((0, 3), numpy.float32)
    assert a.shape == (0, 3) and pool.used_bytes() == 0


def test_bad_shapes(pool):
    with pytest.raises(ValueError, match=r'alloc: shape must not have negative sizes, but got '
                                         r'\(2, -1\)'):
        pool.alloc((2, -1))
    with pytest.raises(TypeError, match='alloc: shape must be an int or a tuple of ints, but '
                                        'got float'):
        pool.alloc(2.5)
    with pytest.raises(TypeError, match='alloc: dtype must not hold Python objects, but got '
                                        'object'):
        pool.alloc(3, object)


def test_threads_share_the_pool_safely(pool):
    errors = []

    def work(seed):
        rng = numpy.random.RandomState(seed)
        for _ in range(300):
            n = int(rng.randint(1, 5000))
            a = pool.alloc((n,), numpy.int32)
            a[...] = seed
            if not (a == seed).all():
                errors.append(seed)
            if rng.rand() < 0.5:
                pool.free(a)
    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert pool.used_bytes() == 0
    assert pool.n_hits + pool.n_misses == 1200 and pool.n_hits > 600


def test_get_pool_per_device():
    cpu = memory.get_pool()
    assert memory.get_pool('@numpy') is cpu and isinstance(cpu, memory.HostMemoryPool)
    emulated = memory.get_pool(EmulatedDevice())
    assert emulated is not cpu
    a = emulated.alloc((2, 3), numpy.float32)
    assert type(a) is EmulatedArray
    before = emulated.used_bytes()
    del a
    assert emulated.used_bytes() == before - 512
