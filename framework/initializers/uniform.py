"""Initializers drawing from uniform distributions: Uniform, LeCunUniform, GlorotUniform,
HeUniform.

Each scaled one draws from ``[-s, s)`` where ``s = sqrt(3)`` times the standard deviation of its
normal counterpart, so that the variances match.
"""

from __future__ import annotations

from framework.initializers.base import FanScaledInitializer, Initializer, fill_random


class Uniform(Initializer):
    """Fills an array with draws from the uniform distribution on ``[-scale, scale)``.

    Args:
        scale (float): the half-width of the interval.
        dtype: see :class:`Initializer`.
        rng: a generator with NumPy's ``RandomState`` interface to draw from; by default the
            framework's generator of the array's module (:mod:`framework.random`).
    """

    def __init__(self, scale: float = 0.05, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array) -> None:
        self.check_dtype(array)
        fill_random(array, self.rng,
                    lambda generator: generator.uniform(-self.scale, self.scale, array.shape))


class _ScaledUniform(FanScaledInitializer):
    def distribution(self, s):
        return Uniform(s, rng=self.rng)


class LeCunUniform(_ScaledUniform):
    """Uniform on ``[-s, s)`` with ``s = scale * sqrt(3 / fan_in)``.

    Args:
        scale (float): the factor of ``s``.
        dtype: see :class:`~framework.initializers.Initializer`.
        rng: see :class:`Uniform`.
    """

    factor = 3.0


class GlorotUniform(_ScaledUniform):
    """Uniform on ``[-s, s)`` with ``s = scale * sqrt(6 / (fan_in + fan_out))``.

    Args:
        scale (float): the factor of ``s``.
        dtype: see :class:`~framework.initializers.Initializer`.
        rng: see :class:`Uniform`.
    """

    factor = 6.0
    fan_option = 'fan_sum'


class HeUniform(_ScaledUniform):
    """Uniform on ``[-s, s)`` with ``s = scale * sqrt(6 / fan_in)``.

    Args:
        scale (float): the factor of ``s``.
        dtype: see :class:`~framework.initializers.Initializer`.
        rng: see :class:`Uniform`.
    """

    factor = 6.0
