"""The draws of the random transforms, from a :class:`numpy.random.Generator` or, when none is
given, from the global generators that ChainerCV 0.13 used for the same draw.

ChainerCV drew with Python's :mod:`random` module in ``random_crop``, ``random_expand``,
``random_flip`` and ``random_sized_crop``, and with NumPy's global :mod:`numpy.random` state in
``random_rotate`` and ``pca_lighting``. With ``rng=None`` the functions here use the same
module, so ``random.seed`` / ``numpy.random.seed`` reproduce results as they did there.
"""

from __future__ import annotations

import random

import numpy


def randint(rng: numpy.random.Generator | None, low: int, high: int) -> int:
    """An integer in ``[low, high]`` (both included); :func:`random.randint` when no rng."""
    if rng is None:
        return random.randint(low, high)
    return int(rng.integers(low, high, endpoint=True))


def uniform(rng: numpy.random.Generator | None, low: float, high: float) -> float:
    """A float in ``[low, high)``; :func:`random.uniform` when no rng."""
    if rng is None:
        return random.uniform(low, high)
    return float(rng.uniform(low, high))


def coin(rng: numpy.random.Generator | None) -> bool:
    """True or False with equal probability; ``random.choice([True, False])`` when no rng."""
    if rng is None:
        return random.choice([True, False])
    return bool(rng.integers(2))


def numpy_source(rng: numpy.random.Generator | None):
    """``rng``, or the global :mod:`numpy.random` state when no rng (both have ``normal`` and
    the other distribution methods with the same signatures)."""
    return numpy.random if rng is None else rng
