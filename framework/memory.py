"""Storage pools: memory blocks kept for reuse instead of asked from the system every time.

A large NumPy array costs more than its computation suggests: the system maps fresh pages for
it and faults each one in, zeroed, at first touch. A pool keeps the blocks of arrays that died
and hands them out again::

    pool = memory.get_pool()                      # the CPU's pool
    col = pool.alloc((n, k, p), numpy.float32)    # uninitialised, like numpy.empty
    ...
    del col                                       # its block goes back to the pool

Sizes are rounded up to size classes (four per power of two, multiples of 512 bytes); a
request takes a cached block of its class, or a cached block at most twice as large, or a new
block. A block returns to the pool when every array viewing it has died, or at once by
:meth:`HostMemoryPool.free`. Devices whose arrays live in host memory (the CPU and the test
device) get a :class:`HostMemoryPool`; a GPU gets CuPy's memory pool behind the same interface
(:class:`GpuMemoryPool`).
"""

from __future__ import annotations

import bisect
import collections
import math
import threading
import weakref

import numpy

from framework import backend

_ALIGNMENT = 64
_MIN_CLASS = 512


def size_class(nbytes: int) -> int:
    """The size of the block that serves a request of ``nbytes``: a multiple of 512 bytes,
    rounded up to a quarter of the power of two below ``nbytes`` (at most 25% more)."""
    unit = max(_MIN_CLASS, 1 << max(nbytes.bit_length() - 3, 0))
    return max(_MIN_CLASS, -(-nbytes // unit) * unit)


class _Block:
    __slots__ = ('raw', 'address', 'size')

    def __init__(self, size: int):
        self.raw = numpy.empty(size + _ALIGNMENT, numpy.uint8)
        address = self.raw.__array_interface__['data'][0]
        self.address = address + (-address) % _ALIGNMENT
        self.size = size


class _Holder:
    """Owns the memory of one allocation: every array viewing it keeps it alive."""

    __slots__ = ('__array_interface__', 'block', 'key', '__weakref__')


def _shape_of(where, shape) -> tuple[int, ...]:
    if isinstance(shape, (int, numpy.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(int(n) for n in shape)
    except TypeError:
        raise TypeError(f'{where}: shape must be an int or a tuple of ints, but got '
                        f'{type(shape).__name__}') from None
    if any(n < 0 for n in shape):
        raise ValueError(f'{where}: shape must not have negative sizes, but got {shape}')
    return shape


def _check_limit(where, nbytes) -> int | None:
    if nbytes is not None and (isinstance(nbytes, bool) or not isinstance(nbytes, int)
                               or nbytes < 0):
        raise ValueError(f'{where}: the limit must be a non-negative int (bytes) or None, but '
                         f'got {nbytes!r}')
    return nbytes


class HostMemoryPool:
    """A thread-safe pool of host memory blocks.

    Args:
        array_type: the class of the arrays handed out: ``numpy.ndarray``, or the array class
            of a device whose arrays live in host memory, which offers
            ``from_host_memory(host_array)`` (a class method) and ``host_memory()`` (both
            without a copy).

    Attributes:
        n_hits (int): allocations served by a cached block.
        n_misses (int): allocations that needed a new block.
    """

    def __init__(self, array_type: type = numpy.ndarray):
        self._array_type = array_type
        self._lock = threading.Lock()
        self._free: dict[int, list[_Block]] = {}
        self._sizes: list[int] = []          # sorted sizes of the non-empty free lists
        self._live: dict[int, tuple[weakref.ref, _Block]] = {}
        # Weak-reference callbacks only append here, so they never wait for the lock.
        self._returned: collections.deque[weakref.ref] = collections.deque()
        self._used = 0
        self._cached = 0
        self._limit: int | None = None
        self.n_hits = 0
        self.n_misses = 0

    def alloc(self, shape, dtype=numpy.float32):
        """An uninitialised C-contiguous array of ``shape`` and ``dtype`` in a pooled block.

        The block returns to the pool when the array and every view of it have died, or when
        the array is passed to :meth:`free`.
        """
        shape = _shape_of('alloc', shape)
        dtype = numpy.dtype(dtype)
        if dtype.hasobject:
            raise TypeError(f'alloc: dtype must not hold Python objects, but got {dtype}')
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes == 0:
            return self._hand_out(numpy.empty(shape, dtype))
        size = size_class(nbytes)
        with self._lock:
            self._drain()
            block = self._take(size)
            if block is None:
                self.n_misses += 1
                block = self._new_block(size)
            else:
                self.n_hits += 1
            holder = _Holder()
            interface = {'data': (block.address, False), 'shape': shape, 'typestr': dtype.str,
                         'version': 3}
            if dtype.fields is not None:
                interface['descr'] = dtype.descr
            holder.__array_interface__ = interface
            holder.block = block
            ref = weakref.ref(holder, self._returned.append)
            holder.key = id(ref)
            self._live[holder.key] = (ref, block)
            self._used += block.size
        return self._hand_out(numpy.asarray(holder))

    def _hand_out(self, array):
        if self._array_type is numpy.ndarray:
            return array
        return self._array_type.from_host_memory(array)

    def free(self, array) -> None:
        """Returns the block of ``array`` (made by :meth:`alloc`) to the pool now; the array
        and its views must not be used afterwards.

        Raises:
            ValueError: when the array does not come from this pool or was freed already.
        """
        if self._array_type is not numpy.ndarray and isinstance(array, self._array_type):
            array = array.host_memory()
        holder = _holder_of(array)
        with self._lock:
            entry = self._live.get(holder.key) if holder is not None else None
            if entry is None or entry[0]() is not holder:
                raise ValueError('free: the array was not allocated by this pool, or was '
                                 'freed already')
            del self._live[holder.key]
            holder.key = None
            self._used -= entry[1].size
            self._cache(entry[1])

    def free_all_blocks(self) -> None:
        """Releases every cached block to the system (blocks in use are not touched)."""
        with self._lock:
            self._drain()
            self._free.clear()
            self._sizes.clear()
            self._cached = 0

    def set_limit(self, nbytes: int | None) -> None:
        """Caps the bytes of cached blocks (None: no cap; 0: nothing is cached, every
        allocation is a new block). Blocks beyond the cap are released to the system."""
        self._limit = _check_limit('set_limit', nbytes)
        with self._lock:
            self._drain()
            while self._limit is not None and self._cached > self._limit:
                self._pop(self._sizes[-1])

    def get_limit(self) -> int | None:
        """The cap on cached bytes set by :meth:`set_limit` (None: none)."""
        return self._limit

    def used_bytes(self) -> int:
        """The bytes of the blocks held by live arrays (sizes rounded to their classes)."""
        with self._lock:
            self._drain()
            return self._used

    def free_bytes(self) -> int:
        """The bytes of the cached blocks, waiting for reuse."""
        with self._lock:
            self._drain()
            return self._cached

    def total_bytes(self) -> int:
        """``used_bytes() + free_bytes()``."""
        with self._lock:
            self._drain()
            return self._used + self._cached

    # --- with the lock held ---------------------------------------------------------------

    def _drain(self) -> None:
        """Takes back the blocks of the arrays that died."""
        returned = self._returned
        while returned:
            entry = self._live.pop(id(returned.popleft()), None)
            if entry is not None:
                self._used -= entry[1].size
                self._cache(entry[1])

    def _cache(self, block: _Block) -> None:
        if self._limit is not None and self._cached + block.size > self._limit:
            return
        blocks = self._free.setdefault(block.size, [])
        if not blocks:
            bisect.insort(self._sizes, block.size)
        blocks.append(block)
        self._cached += block.size

    def _take(self, size: int) -> _Block | None:
        """A cached block of ``size``, else of the smallest cached size up to twice it."""
        i = bisect.bisect_left(self._sizes, size)
        if i == len(self._sizes) or self._sizes[i] > 2 * size:
            return None
        return self._pop(self._sizes[i])

    def _pop(self, size: int) -> _Block:
        blocks = self._free[size]
        block = blocks.pop()
        if not blocks:
            del self._free[size]
            del self._sizes[bisect.bisect_left(self._sizes, size)]
        self._cached -= size
        return block

    def _new_block(self, size: int) -> _Block:
        try:
            return _Block(size)
        except MemoryError:
            self._free.clear()
            self._sizes.clear()
            self._cached = 0
            return _Block(size)


def _holder_of(array) -> _Holder | None:
    base = array
    while isinstance(base, numpy.ndarray):
        base = base.base
    return base if isinstance(base, _Holder) else None


class GpuMemoryPool:
    """CuPy's memory pool of one GPU behind the interface of :class:`HostMemoryPool`.

    CuPy allocates every ``cupy`` array from its default pool already; this class adds the
    statistics and :meth:`free`. Differences: :meth:`set_limit` is CuPy's cap on all the bytes
    the pool holds (used and cached; None or 0: no cap), and a hit is an allocation that did
    not grow the pool.
    """

    def __init__(self, device: backend.GpuDevice):
        self._device = device
        self._pool = device.xp.get_default_memory_pool()
        self.n_hits = 0
        self.n_misses = 0

    def alloc(self, shape, dtype=numpy.float32):
        shape = _shape_of('alloc', shape)
        with self._device.scope():
            before = self._pool.total_bytes()
            array = self._device.xp.empty(shape, dtype)
            grew = self._pool.total_bytes() > before
        if grew:
            self.n_misses += 1
        else:
            self.n_hits += 1
        return array

    def free(self, array) -> None:
        memory = array.data.mem
        if not isinstance(memory, self._device.xp.cuda.memory.PooledMemory):
            raise ValueError('free: the array was not allocated by this pool')
        memory.free()

    def free_all_blocks(self) -> None:
        self._pool.free_all_blocks()

    def set_limit(self, nbytes: int | None) -> None:
        self._pool.set_limit(size=_check_limit('set_limit', nbytes) or 0)

    def get_limit(self) -> int | None:
        return self._pool.get_limit() or None

    def used_bytes(self) -> int:
        return self._pool.used_bytes()

    def free_bytes(self) -> int:
        return self._pool.free_bytes()

    def total_bytes(self) -> int:
        return self._pool.total_bytes()


_pools: dict[backend.Device, HostMemoryPool | GpuMemoryPool] = {}
_pools_lock = threading.Lock()


def get_pool(device=None) -> HostMemoryPool | GpuMemoryPool:
    """Returns the memory pool of ``device`` (a Device or device spec; the CPU when None)."""
    device = backend.CpuDevice() if device is None else backend.get_device(device)
    pool = _pools.get(device)
    if pool is None:
        with _pools_lock:
            pool = _pools.get(device)
            if pool is None:
                pool = _pools[device] = _make_pool(device)
    return pool


def _make_pool(device: backend.Device) -> HostMemoryPool | GpuMemoryPool:
    if isinstance(device, backend.GpuDevice):
        return GpuMemoryPool(device)
    array_type = type(device.xp.empty(0))
    if array_type is not numpy.ndarray and not hasattr(array_type, 'from_host_memory'):
        raise ValueError(f'get_pool: no memory pool for {device}: its arrays are not in host '
                         'memory and it is not a CuPy GPU')
    return HostMemoryPool(array_type)
