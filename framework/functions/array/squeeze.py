"""Removing axes of length one."""

from __future__ import annotations

from framework.functions._inputs import array_input, is_int
from framework.functions.array.reshape import reshape
from framework.utils import type_check
from framework.variable import Variable


def squeeze(x, axis: int | tuple[int, ...] | None = None) -> Variable:
    """Removes axes of length one from the shape of ``x``, without copying the data.

    Args:
        x (Variable or array): the input, of any shape and dtype.
        axis (None, int or tuple of int): the axes to remove, each of length one; negative
            values count from the end. None removes every axis of length one.

    Returns:
        Variable: of the dtype of ``x`` and its shape without the removed axes.
    """
    shape = array_input('squeeze', 'x', x).shape
    if axis is None:
        axes = tuple(i for i, s in enumerate(shape) if s == 1)
    elif is_int(axis) or (isinstance(axis, tuple) and all(is_int(a) for a in axis)):
        axes = type_check.normalize_axes('squeeze', axis, len(shape))
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f'squeeze: axis {a} of x must have length 1 to be removed, '
                                 f'but x has shape {shape}')
    else:
        raise TypeError(f'squeeze: axis must be None, an int or a tuple of ints, '
                        f'but got {axis!r}')
    return reshape(x, tuple(s for i, s in enumerate(shape) if i not in axes))
