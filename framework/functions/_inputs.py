"""Checks of the arguments of public functions, shared by the function families."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework import backend
from framework.utils import type_check
from framework.variable import Variable


def array_input(fname: str, name: str, x, kinds: str | None = None):
    """Returns the array of ``x``, checked to be a Variable or an array.

    Args:
        fname: the public function, named in error messages.
        name: the argument, named in error messages.
        x: the argument.
        kinds: the dtype kinds allowed (e.g. ``'f'``, ``'iu'``); None for any.

    Raises:
        TypeError: naming ``fname`` and ``name``, when ``x`` is neither a Variable nor an array
            or its dtype kind is not in ``kinds``.
    """
    if isinstance(x, Variable):
        array = x.array
    elif backend.is_array(x):
        array = x
    else:
        raise TypeError(f'{fname}: {name} must be a Variable or an array, '
                        f'but got {type(x).__name__}')
    if kinds is not None:
        type_check.expect_dtype_kind(fname, name, array, kinds)
    return array


def float_input(fname: str, name: str, x):
    """Returns the array of ``x``, checked to be a Variable or an array of a float dtype."""
    return array_input(fname, name, x, 'f')


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


def spatial_tuple(fname: str, name: str, value, n: int, minimum: int) -> tuple[int, ...]:
    """``value`` (an int or a sequence of ``n`` ints, each at least ``minimum``) as a tuple.

    Raises:
        TypeError: when ``value`` is neither an int nor a sequence of ints.
        ValueError: when the sequence has not ``n`` entries or an entry is below ``minimum``.
    """
    kind = 'positive' if minimum == 1 else 'non-negative'
    if is_int(value):
        values = (int(value),) * n
    elif isinstance(value, Sequence) and all(is_int(v) for v in value):
        if len(value) != n:
            raise ValueError(f'{fname}: {name} must be an int or a sequence of {n} ints (one per '
                             f'spatial axis of x), but got {tuple(value)}')
        values = tuple(int(v) for v in value)
    else:
        raise TypeError(f'{fname}: {name} must be an int or a sequence of {n} ints, '
                        f'but got {value!r}')
    if any(v < minimum for v in values):
        raise ValueError(f'{fname}: {name} must be {kind}, but got {value!r}')
    return values


def spatial_input(fname: str, x, n_spatial: int | None):
    """The array of ``x``, checked to be floating-point ``(N, C, *spatial)``.

    Args:
        n_spatial: the number of spatial axes required; None for any number (at least one).
    """
    array = float_input(fname, 'x', x)
    if n_spatial is None:
        type_check.expect_ndim(fname, 'x', array, min_ndim=3)
    else:
        type_check.expect_ndim(fname, 'x', array, ndim=2 + n_spatial)
    return array
