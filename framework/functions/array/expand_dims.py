"""Inserting an axis of length one."""

from __future__ import annotations

from framework.functions._inputs import array_input
from framework.functions.array.reshape import reshape
from framework.utils import type_check
from framework.variable import Variable


def expand_dims(x, axis: int) -> Variable:
    """Inserts an axis of length one into the shape of ``x``, without copying the data.

    Args:
        x (Variable or array): the input, of any shape and dtype, with ``N`` axes.
        axis (int): the position of the new axis in the output, in ``[-N - 1, N]``; negative
            values count from the end of the output's axes.

    Returns:
        Variable: of ``N + 1`` axes, the dtype of ``x`` and length 1 along ``axis``.
    """
    shape = list(array_input('expand_dims', 'x', x).shape)
    axis = type_check.normalize_axis('expand_dims', axis, len(shape) + 1)
    shape.insert(axis, 1)
    return reshape(x, tuple(shape))
