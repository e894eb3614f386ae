"""The seeds of the random draws of each example that a worker process reads.

Workers take the tasks of one queue in whatever order they get to them, so generators seeded
once per worker would give an example the draws of whichever worker read it, and a run with
the same seed would not repeat. Before each example, a worker seeds Python's :mod:`random`,
NumPy's global generator and :mod:`framework.random` from the iterator's seed and the example's
number in the iteration (counted over all epochs): random transforms then draw the same
whichever worker reads the example and however many workers there are, each example of each
epoch draws anew, and a run resumed from a snapshot draws what the interrupted one would have.
"""

from __future__ import annotations

import random

import numpy

from framework import random as framework_random


def fresh_seed() -> int:
    """A seed from OS entropy, for an iterator given none (its runs then differ)."""
    return numpy.random.SeedSequence().entropy


def seed_generators(seed: int, number: int) -> None:
    """Seeds the generators that random transforms draw from, for one example.

    Args:
        seed: the iterator's seed (a non-negative int).
        number: the number of the example in the iteration: the examples drawn before it,
            over all epochs.
    """
    words = numpy.random.SeedSequence(seed, spawn_key=(number,)).generate_state(4)
    numpy.random.seed(words)
    random.seed(int.from_bytes(words.tobytes(), 'little'))
    framework_random.seed(int(words[0]))
