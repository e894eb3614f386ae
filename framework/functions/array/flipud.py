"""Reversing the rows (axis 0) of an array."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.array.flip import Flip
from framework.utils import type_check
from framework.variable import Variable


def flipud(a) -> Variable:
    """Flips ``a`` in the up/down direction: reverses its axis 0.

    Args:
        a (Variable or array): a floating-point input of at least one dimension.

    Returns:
        Variable: of the shape and dtype of ``a``.
    """
    a_array = float_input('flipud', 'a', a)
    type_check.expect_ndim('flipud', 'a', a_array, min_ndim=1)
    return Flip(0).apply((a,))[0]
