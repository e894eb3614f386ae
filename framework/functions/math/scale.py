"""Elementwise product with a second input broadcast along given axes (Caffe's scale)."""

from __future__ import annotations

import numbers

from framework.functions._inputs import array_input
from framework.functions.array.broadcast import broadcast_to
from framework.functions.array.reshape import reshape
from framework.variable import Variable


def align_to_axis(fname: str, x, y, axis: int) -> Variable:
    """``y`` broadcast to the shape of ``x``, its axes matched with those of ``x`` from
    ``axis`` on.

    Raises:
        TypeError: when ``axis`` is not an int.
        ValueError: when ``x.shape[axis:axis + y.ndim]`` is not ``y.shape``.
    """
    x_shape = array_input(fname, 'x', x).shape
    y_shape = array_input(fname, 'y', y).shape
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f'{fname}: axis must be an int, but got {type(axis).__name__}')
    if not 0 <= axis <= len(x_shape) - len(y_shape) or \
            x_shape[axis:axis + len(y_shape)] != y_shape:
        raise ValueError(f'{fname}: y of shape {y_shape} must match the axes of x of shape '
                         f'{x_shape} from axis {axis} on')
    trailing = len(x_shape) - axis - len(y_shape)
    return broadcast_to(reshape(y, (1,) * axis + y_shape + (1,) * trailing), x_shape)


def scale(x, y, axis: int = 1) -> Variable:
    """Elementwise product of ``x`` and ``y``, ``y`` broadcast along the axes of ``x`` from
    ``axis`` on.

    For ``x`` of shape ``(100, 3, 40, 5, 6)``, ``y`` of shape ``(3, 40)`` and ``axis=1``, ``y``
    is viewed as ``(1, 3, 40, 1, 1)``.

    Args:
        x (Variable or array): the input, of shape ``(s_0, ..., s_n)``.
        y (Variable or array): the factor, of shape ``(s_axis, ..., s_{axis + m - 1})`` and
            x's dtype.
        axis (int): the first axis of ``x`` that the axes of ``y`` match.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    return x * align_to_axis('scale', x, y, axis)
