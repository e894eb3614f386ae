"""Seedable random generators, one per array module.

Functions that draw random numbers (dropout, random initializers, ...) take their generator
from :func:`get_random_state` instead of NumPy's global state, so one call to :func:`seed`
makes them reproducible on every device::

    import framework
    framework.random.seed(0)
    y = F.dropout(x)    # the same mask after every seed(0), on the CPU or a GPU

A generator is the ``RandomState`` of its array module (``numpy.random.RandomState``,
``cupy.random.RandomState`` or the emulated device's); it is made on first use from the last
seed given, or from fresh OS entropy when none was given. Besides that main generator, an array
module has independent generators named by a tuple of ints (``stream``), seeded from the seed
and the tuple: :mod:`framework.resources` gives each GPU but the first, and each parallel
worker, its own.
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


def get_random_state(xp: Any = numpy, stream: tuple[int, ...] = ()) -> Any:
    """Returns a generator of the array module ``xp`` (``numpy``, ``cupy``, ...).

    Args:
        xp: an array module, as given by :func:`framework.backend.get_array_module`.
        stream: ``()`` for the module's main generator, seeded with the seed itself (after
            ``seed(s)`` it draws what ``xp.random.RandomState(s)`` draws); a tuple of
            non-negative ints for an independent generator seeded from the seed and the tuple.

    Returns:
        ``xp.random.RandomState``: its methods return arrays of ``xp``.
    """
    stream = tuple(stream)
    if not all(isinstance(i, (int, numpy.integer)) and not isinstance(i, bool) and i >= 0
               for i in stream):
        raise ValueError('get_random_state: stream must be a tuple of non-negative ints, but '
                         f'got {stream!r}')
    with _lock:
        state = _states.get((xp, stream))
        if state is None:
            state = xp.random.RandomState(_seed if not stream else _derived_seed(stream))
            _states[(xp, stream)] = state
        return state


def _derived_seed(stream: tuple[int, ...]) -> int | None:
    """The seed of the generator named by ``stream``: None (fresh entropy) when unseeded."""
    if _seed is None:
        return None
    sequence = numpy.random.SeedSequence(_seed, spawn_key=tuple(int(i) for i in stream))
    return int(sequence.generate_state(1)[0])
