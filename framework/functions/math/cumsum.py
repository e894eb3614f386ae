"""Cumulative sum along an axis."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.utils import type_check
from framework.variable import Variable


class Cumsum(FunctionNode):
    """Inclusive cumulative sum along ``axis``, from the end backwards when ``reverse``.

    The two directions are each other's adjoint, so each one's backward is the other.
    """

    def __init__(self, axis: int, reverse: bool = False):
        self.axis = axis
        self.reverse = reverse

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        if self.reverse:
            return xp.flip(xp.cumsum(xp.flip(x, self.axis), axis=self.axis), self.axis),
        return xp.cumsum(x, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        return Cumsum(self.axis, not self.reverse).apply(grad_outputs)


def cumsum(x, axis=None) -> Variable:
    """Cumulative sum of the elements along an axis.

    Args:
        x (Variable or array): the input, a float array.
        axis (None or int): the axis; None to sum along the flattened input.

    Returns:
        Variable: of x's dtype and shape (1-dimensional, of x's size, when ``axis`` is None).
    """
    x_array = float_input('cumsum', 'x', x)
    if axis is None:
        from framework.functions.array.reshape import reshape
        return Cumsum(0).apply((reshape(x, (-1,)),))[0]
    axis = type_check.normalize_axis('cumsum', axis, x_array.ndim)
    return Cumsum(axis).apply((x,))[0]
