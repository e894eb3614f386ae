"""Clipping the elements of an input to an interval."""

from __future__ import annotations

import numbers

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class Clip(FunctionNode):

    def __init__(self, x_min: float | None, x_max: float | None):
        self.x_min = x_min
        self.x_max = x_max

    def _bounds(self, x):
        """The bounds as scalars of ``x``'s dtype (None where unbounded)."""
        return tuple(None if b is None else x.dtype.type(b) for b in (self.x_min, self.x_max))

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        low, high = self._bounds(x)
        y = x if low is None else xp.maximum(x, low)
        return y if high is None else xp.minimum(y, high),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        x = x.array
        xp = backend.get_array_module(x)
        low, high = self._bounds(x)
        inside = xp.ones(x.shape, dtype=bool)
        if low is not None:
            inside &= x >= low
        if high is not None:
            inside &= x <= high
        return gy * inside.astype(gy.dtype),


def _check_bound(name, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
        raise TypeError(f'clip: {name} must be a real scalar or None, '
                        f'but got {type(value).__name__}')


def clip(x, x_min: float | None, x_max: float | None) -> Variable:
    """Clips the elements of ``x`` to the interval ``[x_min, x_max]``.

    Elements below ``x_min`` become ``x_min`` and those above ``x_max`` become ``x_max``. The
    gradient is that of the identity inside the closed interval (1 at ``x_min`` and ``x_max``
    themselves, as in Chainer) and 0 outside.

    Args:
        x (Variable or array): a floating-point input of any shape.
        x_min (float or None): the lower bound; None for none.
        x_max (float or None): the upper bound; None for none. At least one bound must be
            given, and ``x_min < x_max`` when both are.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('clip', 'x', x)
    _check_bound('x_min', x_min)
    _check_bound('x_max', x_max)
    if x_min is None and x_max is None:
        raise ValueError('clip: x_min and x_max must not both be None')
    if x_min is not None and x_max is not None and not x_min < x_max:
        raise ValueError(f'clip: x_min must be less than x_max, but got x_min={x_min} and '
                         f'x_max={x_max}')
    return Clip(x_min, x_max).apply((x,))[0]
