"""Argument checks shared by the array functions."""

from __future__ import annotations

import numpy


def is_int(value) -> bool:
    """Whether ``value`` is a Python or NumPy integer (bool excluded)."""
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, (bool, numpy.bool_))


def positive_int(fname: str, name: str, value) -> int:
    """Returns ``value`` as an int after checking that it is a positive integer."""
    if not is_int(value):
        raise TypeError(f'{fname}: {name} must be an int, but got {type(value).__name__}')
    if value <= 0:
        raise ValueError(f'{fname}: {name} must be positive, but got {value}')
    return int(value)
