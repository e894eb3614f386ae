"""Constant initializers: Constant, Zero, One, NaN, Identity."""

from __future__ import annotations

import numpy

from framework import backend
from framework.initializers.base import Initializer


class Constant(Initializer):
    """Fills an array with a scalar, or with a copy of an array broadcast to its shape.

    Args:
        fill_value: a scalar or an array (of any device).
        dtype: see :class:`Initializer`.
    """

    def __init__(self, fill_value, dtype=None):
        if not (backend.is_array(fill_value) or numpy.isscalar(fill_value)):
            raise TypeError(f'Constant: fill_value must be a scalar or an array, but got '
                            f'{type(fill_value).__name__}')
        super().__init__(dtype)
        self.fill_value = fill_value

    def __call__(self, array) -> None:
        self.check_dtype(array)
        value = self.fill_value
        if backend.is_array(value):
            value = backend.get_device_from_array(array).send(value)
        array[...] = value


class Zero(Constant):
    """Fills an array with 0."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills an array with 1."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills an array with NaN (what a parameter is filled with when no initializer is
    given)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)


class Identity(Initializer):
    """Fills a square matrix with ``scale`` times the identity.

    Args:
        scale (float): the value of the diagonal.
        dtype: see :class:`Initializer`.

    Raises:
        ValueError: when called on an array that is not a square matrix.
    """

    def __init__(self, scale: float = 1.0, dtype=None):
        super().__init__(dtype)
        self.scale = scale

    def __call__(self, array) -> None:
        self.check_dtype(array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f'Identity: the array must be a square matrix, but got shape '
                             f'{shape}')
        xp = backend.get_device_from_array(array).xp
        array[...] = xp.identity(shape[0]) * self.scale
