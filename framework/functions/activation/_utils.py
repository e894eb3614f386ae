"""Argument checks and shape helpers shared by the activation functions."""

from __future__ import annotations

import numbers

from framework.functions._inputs import float_input
from framework.utils import type_check
from framework.variable import as_array


def real_scalar(fname: str, name: str, value) -> float:
    """Checks that ``value`` is a real number (not a bool) and returns it as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f'{fname}: {name} must be a float, but got {type(value).__name__}')
    return float(value)


def channel_param(fname: str, x, w, name: str):
    """Checks a parameter ``w`` applied along the axes of ``x`` after the batch axis.

    ``w`` must be a Variable or array of the dtype of ``x`` whose shape is
    ``x.shape[1:1 + w.ndim]``. Returns the array of ``w``.
    """
    w_array = float_input(fname, name, w)
    x_array = as_array(x)
    type_check.expect_same_dtype(fname, ('x', name), (x_array, w_array))
    if w_array.ndim >= x_array.ndim or x_array.shape[1:1 + w_array.ndim] != w_array.shape:
        raise ValueError(f'{fname}: {name} must have the shape of the axes of x after the '
                         f'first (x.shape[1:1 + {name}.ndim]), but got {name} of shape '
                         f'{w_array.shape} for x of shape {x_array.shape}')
    return w_array


def channel_shape(w_shape: tuple[int, ...], x_ndim: int) -> tuple[int, ...]:
    """The shape ``(1,) + w_shape + (1, ...)`` of ``x_ndim`` axes that broadcasts to x."""
    return (1,) + tuple(w_shape) + (1,) * (x_ndim - len(w_shape) - 1)


def channel_reduce_axes(w_ndim: int, x_ndim: int) -> tuple[int, ...]:
    """The axes of x to sum over to bring a gradient of x's shape to the parameter's."""
    return (0,) + tuple(range(1 + w_ndim, x_ndim))
