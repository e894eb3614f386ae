"""Reversing the order of the elements along one axis."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, is_int
from framework.utils import type_check
from framework.variable import Variable


class Flip(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.flip(x, self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def flip(x, axis: int) -> Variable:
    """Reverses the order of the elements of ``x`` along ``axis``.

    Args:
        x (Variable or array): the input, of at least one dimension.
        axis (int): the axis to reverse; negative values count from the end.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    x_array = array_input('flip', 'x', x)
    if not is_int(axis):
        raise TypeError(f'flip: axis must be an int, but got {type(axis).__name__}')
    type_check.expect_ndim('flip', 'x', x_array, min_ndim=1)
    return Flip(type_check.normalize_axis('flip', axis, x_array.ndim)).apply((x,))[0]
