"""Seedable random generators, one per array module.

Functions that draw random numbers (dropout, random initializers, ...) take their generator
from :func:`get_random_state` instead of NumPy's global state, so one call to :func:`seed`
makes them reproducible on every device::

    import framework
    framework.random.seed(0)
    y = F.dropout(x)    # the same mask after every seed(0), on the CPU or a GPU

A generator is the ``RandomState`` of its array module (``numpy.random.RandomState``,
``cupy.random.RandomState`` or the emulated device's); it is made on first use from the last
seed given, or from fresh OS entropy when none was given. There is one generator per array
module, not per device: all GPUs share CuPy's.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy

_lock = threading.Lock()
_seed: int | None = None
_states: dict[Any, Any] = {}


def seed(seed: int | None = None) -> None:
    """Seeds the generators of every array module, those already made and those made later.

    Args:
        seed: an int in ``[0, 2**32)``; None reseeds from fresh OS entropy.
    """
    global _seed
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, numpy.integer)):
            raise TypeError(f'seed: seed must be an int or None, but got {type(seed).__name__}')
        if not 0 <= seed < 2 ** 32:
            raise ValueError(f'seed: seed must be in [0, 2**32), but got {seed}')
        seed = int(seed)
    with _lock:
        _seed = seed
        _states.clear()


def get_random_state(xp: Any = numpy) -> Any:
    """Returns the generator of the array module ``xp`` (``numpy``, ``cupy``, ...).

    Args:
        xp: an array module, as given by :func:`framework.backend.get_array_module`.

    Returns:
        ``xp.random.RandomState``: its methods return arrays of ``xp``.
    """
    with _lock:
        state = _states.get(xp)
        if state is None:
            state = xp.random.RandomState(_seed)
            _states[xp] = state
        return state
