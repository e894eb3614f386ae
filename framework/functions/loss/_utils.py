"""Argument checks and gradient helpers shared by the loss and evaluation functions."""

from __future__ import annotations

from collections.abc import Sequence

from framework.functions._inputs import array_input, float_input
from framework.utils import type_check
from framework.variable import Variable


def label_input(fname: str, name: str, t):
    """Returns the array of ``t``, checked to be a Variable or an array of signed integers."""
    return array_input(fname, name, t, 'i')


def check_reduce(fname: str, reduce, allowed: Sequence[str]) -> None:
    """Checks that ``reduce`` is one of ``allowed``; raises ValueError naming them."""
    if reduce not in allowed:
        options = ' or '.join(repr(a) for a in allowed)
        raise ValueError(f'{fname}: reduce must be {options}, but got {reduce!r}')


def check_error_pair(fname: str, x0, x1, names: tuple[str, str] = ('x0', 'x1')) -> None:
    """Checks the two inputs of an error function: floating-point, one dtype, one shape."""
    a = float_input(fname, names[0], x0)
    b = array_input(fname, names[1], x1)
    type_check.expect_same_dtype(fname, names, (a, b))
    type_check.expect_same_shape(fname, names, (a, b))


def pair_grads(gx0: Variable, indexes: Sequence[int]) -> tuple[Variable, ...]:
    """The gradients ``(gx0, -gx0)`` of a function of ``x0 - x1``, for the requested inputs."""
    return tuple(gx0 if i == 0 else -gx0 for i in indexes)
