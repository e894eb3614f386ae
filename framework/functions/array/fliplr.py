"""Reversing the columns (axis 1) of an array."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.array.flip import Flip
from framework.utils import type_check
from framework.variable import Variable


def fliplr(a) -> Variable:
    """Flips ``a`` in the left/right direction: reverses its axis 1.

    Args:
        a (Variable or array): a floating-point input of at least two dimensions.

    Returns:
        Variable: of the shape and dtype of ``a``.
    """
    a_array = float_input('fliplr', 'a', a)
    type_check.expect_ndim('fliplr', 'a', a_array, min_ndim=2)
    return Flip(1).apply((a,))[0]
