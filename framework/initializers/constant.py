"""Constant initializers: Constant, Zero, One, NaN."""

from __future__ import annotations

import numpy

from framework import backend
from framework.initializers.base import Initializer


class Constant(Initializer):
    """Fills an array with a scalar, or with a copy of an array broadcast to its shape.

    Args:
        fill_value: a scalar or an array.
        dtype: see :class:`Initializer`.
    """

    def __init__(self, fill_value, dtype=None):
        super().__init__(dtype)
        self.fill_value = fill_value

    def __call__(self, array) -> None:
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
    """Fills an array with NaN (what an uninitialized parameter's gradient starts as)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)
