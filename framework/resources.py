"""Resources that ops request from the system, per device (MXNet's resource manager).

Random streams. Each device has a main random generator, drawn by dropout, the random
initializers and any op that needs random numbers; :func:`framework.random.seed` seeds them
all. Work pushed to the engine that draws from the main stream lists the stream's variable
(:func:`framework.engine.random_var`) among the variables it writes, so that draws happen in
push order and give the same numbers whichever engine runs them. Parallel workers that must not
share a stream (the threads of one op, the processes of a data loader) each take their own with
``worker=i``: the numbers depend on the seed, the device and ``i``, not on which thread runs
first.

Temporary workspace. :func:`request_workspace` lends an op scratch memory from the device's
pool (:mod:`framework.memory`): blocks come back to the pool when the op drops them, so the
next request of a similar size reuses them instead of mapping fresh memory.
"""

from __future__ import annotations

from typing import Any

import numpy

from framework import backend, memory
from framework import random as framework_random


def _device_of(where, device) -> backend.Device:
    if device is None:
        return backend.CpuDevice()
    try:
        return backend.get_device(device)
    except ValueError:
        raise ValueError(f'{where}: device must be a Device, a device spec or None, but got '
                         f'{device!r}') from None


def random_state(device=None, worker: int | None = None) -> Any:
    """Returns a random generator of ``device``, drawing arrays of that device.

    Args:
        device: a Device or device spec; the CPU when None.
        worker: None for the device's main stream; an int ``i >= 0`` for the independent
            stream of parallel worker ``i``.

    Returns:
        An ``xp.random.RandomState``. The main stream of the CPU, of the test device and of
        GPU 0 is :func:`framework.random.get_random_state` of their array module (after
        ``framework.random.seed(s)`` it draws what ``numpy.random.RandomState(s)`` draws);
        other GPUs and worker streams are seeded from the seed, the device and the worker.
    """
    device = _device_of('random_state', device)
    if worker is not None and (isinstance(worker, bool) or not isinstance(worker, int)
                               or worker < 0):
        raise ValueError(f'random_state: worker must be a non-negative int or None, but got '
                         f'{worker!r}')
    index = getattr(device, 'device_id', 0)
    stream = () if worker is None and index == 0 else (index, 0 if worker is None else worker + 1)
    with device.scope():
        return framework_random.get_random_state(device.xp, stream)


def request_workspace(device, nbytes: int):
    """Lends ``nbytes`` of uninitialised scratch memory on ``device`` from its pool.

    Args:
        device: a Device or device spec; the CPU when None.
        nbytes (int): the size in bytes.

    Returns:
        A 1-d ``uint8`` array of the device, of ``nbytes`` elements; view it with the dtype and
        shape needed. Its block returns to the pool when it and its views die.
    """
    device = _device_of('request_workspace', device)
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, numpy.integer)) or nbytes < 0:
        raise ValueError(f'request_workspace: nbytes must be a non-negative int, but got '
                         f'{nbytes!r}')
    return memory.get_pool(device).alloc((int(nbytes),), numpy.uint8)
