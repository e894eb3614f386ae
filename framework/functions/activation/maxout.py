"""Maxout: the maximum over groups of ``pool_size`` consecutive channels."""

from __future__ import annotations

import numbers

from framework.functions._inputs import float_input
from framework.functions.array.reshape import reshape
from framework.functions.math.minmax import max as _max
from framework.utils import type_check
from framework.variable import Variable


def maxout(x, pool_size: int, axis: int = 1) -> Variable:
    """Maxout activation function.

    The ``axis`` dimension of ``x``, of size ``M * pool_size``, is split into ``(M, pool_size)``
    and the maximum is taken over each group of ``pool_size``. On ties, each of the tied
    elements receives the whole gradient, as in Chainer.

    Args:
        x (Variable or array): a float array; its first axis is usually the minibatch.
        pool_size (int): the size of the groups, positive.
        axis (int): the axis to pool over; its size must be a multiple of ``pool_size``.
            Negative values count from the end.

    Returns:
        Variable: of the shape of ``x`` except that the ``axis`` dimension is ``M``, and of its
        dtype.
    """
    x_array = float_input('maxout', 'x', x)
    if isinstance(pool_size, bool) or not isinstance(pool_size, numbers.Integral):
        raise TypeError(f'maxout: pool_size must be an int, but got {type(pool_size).__name__}')
    if pool_size <= 0:
        raise ValueError(f'maxout: pool_size must be positive, but got {pool_size}')
    axis = type_check.normalize_axis('maxout', axis, x_array.ndim)
    shape = x_array.shape
    if shape[axis] % pool_size:
        raise ValueError(f'maxout: x.shape[axis] must be a multiple of pool_size, but got '
                         f'x.shape[{axis}] = {shape[axis]} and pool_size = {pool_size}')
    grouped = shape[:axis] + (shape[axis] // pool_size, int(pool_size)) + shape[axis + 1:]
    return _max(reshape(x, grouped), axis=axis + 1)
