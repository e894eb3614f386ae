"""Checks of the array inputs of public functions, shared by the function families."""

from __future__ import annotations

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
