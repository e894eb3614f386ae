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


def shape_input(fname: str, shape) -> tuple[int, ...]:
    """Returns a ``shape`` argument (an int or a sequence of ints) as a tuple of Python ints.

    Raises:
        TypeError: naming ``fname`` and the value when it is neither.
    """
    if is_int(shape):
        return (int(shape),)
    if isinstance(shape, (tuple, list)) or backend.is_array(shape) and shape.ndim == 1:
        entries = tuple(shape)
        if all(is_int(s) for s in entries):
            return tuple(int(s) for s in entries)
    raise TypeError(f'{fname}: shape must be an int or a sequence of ints, but got {shape!r}')


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


def joined_arrays(fname: str, xs) -> list:
    """Returns the arrays of the inputs of a function that joins them (concat, stack...).

    Args:
        fname: the public function, named in error messages.
        xs: the inputs, Variables or arrays: at least one, of one dtype and one number of
            dimensions.

    Returns:
        list: the array of each input.
    """
    arrays = [array_input(fname, f'xs[{i}]', x) for i, x in enumerate(xs)]
    if not arrays:
        raise ValueError(f'{fname}: xs must hold at least one array, but got none')
    type_check.expect_same_dtype(fname, [f'xs[{i}]' for i in range(len(arrays))], arrays)
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != arrays[0].ndim:
            raise ValueError(f'{fname}: xs[{i}] must have as many dimensions as xs[0] '
                             f'{arrays[0].shape}, but got shape {a.shape}')
    return arrays


def expect_joinable(fname: str, arrays, free_axis: int | None = None) -> None:
    """Checks that the arrays to join have one shape except along ``free_axis``.

    Args:
        fname: the public function, named in error messages.
        arrays: the arrays, as :func:`joined_arrays` returns them.
        free_axis: the axis along which the shapes may differ; None for none.
    """
    first = arrays[0].shape
    for i, a in enumerate(arrays[1:], 1):
        if any(s != t for d, (s, t) in enumerate(zip(a.shape, first)) if d != free_axis):
            where = '' if free_axis is None else f' except along axis {free_axis}'
            raise ValueError(f'{fname}: xs[{i}] must have the shape of xs[0] {first}{where}, '
                             f'but got shape {a.shape}')
