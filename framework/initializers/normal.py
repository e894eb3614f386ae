"""Initializers drawing from normal distributions."""

from __future__ import annotations

import math

from framework import backend
from framework import random as framework_random
from framework.initializers.base import Initializer


def get_fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight of ``shape`` ``(out, in, *kernel)``.

    Raises:
        ValueError: when the shape has fewer than two axes.
    """
    if len(shape) < 2:
        raise ValueError(f'get_fans: the shape must have at least two axes, but got {shape}')
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


class Normal(Initializer):
    """Fills an array with draws from N(0, scale^2).

    Args:
        scale (float): the standard deviation.
        dtype: see :class:`Initializer`.
    """

    def __init__(self, scale: float = 0.05, dtype=None):
        super().__init__(dtype)
        self.scale = scale

    def __call__(self, array) -> None:
        xp = backend.get_array_module(array)
        state = framework_random.get_random_state(xp)
        array[...] = state.normal(0.0, self.scale, array.shape)


class LeCunNormal(Initializer):
    """Normal with standard deviation ``scale * sqrt(1 / fan_in)`` (Chainer's default)."""

    def __init__(self, scale: float = 1.0, dtype=None):
        super().__init__(dtype)
        self.scale = scale

    def __call__(self, array) -> None:
        fan_in, _ = get_fans(array.shape)
        Normal(self.scale * math.sqrt(1.0 / fan_in))(array)
