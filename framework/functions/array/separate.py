"""Separating an array into its slices along an axis."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.functions.array.stack import stack
from framework.utils import type_check
from framework.variable import Variable


class Separate(FunctionNode):

    def __init__(self, axis: int):
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        lead = (slice(None),) * self.axis
        return tuple(x[lead + (i,)] for i in range(x.shape[self.axis]))

    def backward(self, indexes, grad_outputs):
        shape = list(self.inputs[0].shape)
        del shape[self.axis]
        xp = backend.get_array_module(*grad_outputs)
        dtype = self.inputs[0].dtype
        gys = [xp.zeros(shape, dtype) if gy is None else gy for gy in grad_outputs]
        return stack(gys, self.axis),


def separate(x, axis: int = 0) -> tuple[Variable, ...]:
    """Separates ``x`` into its slices along ``axis`` (the inverse of :func:`stack`).

    Args:
        x (Variable or array): the input, of shape ``(s_0, ..., s_{N-1})`` (``N >= 1``) and any
            dtype.
        axis (int): the axis to separate along; negative values count from the end.

    Returns:
        tuple of Variable: ``s_axis`` outputs, the ``i``-th being ``x[..., i, ...]`` (``i`` at
        ``axis``), of the dtype of ``x`` and its shape without ``axis``.
    """
    ndim = array_input('separate', 'x', x).ndim
    return Separate(type_check.normalize_axis('separate', axis, ndim)).apply((x,))
