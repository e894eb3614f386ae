"""Helpers shared by the reductions: Chainer's rule for ``axis`` and the broadcast of a gradient
back over the reduced axes."""

from __future__ import annotations

import numpy

from framework.utils import type_check
from framework.variable import Variable


def normalize_axis_argument(fname: str, axis, ndim: int) -> tuple[int, ...] | None:
    """Checks ``axis`` as Chainer's reductions do and returns it as a sorted tuple, or None.

    Args:
        fname: the public function, named in error messages.
        axis: None, an int or a tuple of ints (a list is refused, as in Chainer).
        ndim: the number of dimensions of the input.

    Raises:
        TypeError: when ``axis`` is not None, an int or a tuple of ints.
        ValueError: when an axis is out of range or repeated.
    """
    if axis is not None and not isinstance(axis, (int, numpy.integer, tuple)):
        raise TypeError(f'{fname}: axis must be None, an int or a tuple of ints, '
                        f'but got {type(axis).__name__}')
    return type_check.normalize_axes(fname, axis, ndim)


def kept_shape(shape: tuple[int, ...], axes: tuple[int, ...] | None) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` (all of them for None) set to 1."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def broadcast_over_axes(gy: Variable, shape: tuple[int, ...],
                        axes: tuple[int, ...] | None) -> Variable:
    """Broadcasts the gradient of a reduction over ``axes`` back to the input ``shape``.

    Args:
        gy: the gradient of the output, with or without the reduced axes kept.
        shape: the shape of the reduction's input.
        axes: the reduced axes, sorted and non-negative; None for all.

    Returns:
        Variable: of shape ``shape`` (differentiable, for double backprop).
    """
    from framework.functions.array.broadcast import broadcast_to
    from framework.functions.array.reshape import reshape
    return broadcast_to(reshape(gy, kept_shape(shape, axes)), shape)
