"""Flattening an array into one dimension."""

from __future__ import annotations

from framework.functions._inputs import array_input
from framework.functions.array.reshape import reshape
from framework.variable import Variable


def flatten(x) -> Variable:
    """Flattens ``x`` into one dimension, in C order.

    Args:
        x (Variable or array): the input, of any shape and dtype.

    Returns:
        Variable: of shape ``(x.size,)`` and the dtype of ``x``.
    """
    return reshape(x, (array_input('flatten', 'x', x).size,))
