"""Repeating each element: ``repeat``, as :func:`numpy.repeat` does."""

from __future__ import annotations

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.utils import type_check
from framework.variable import Variable


class Repeat(FunctionNode):

    def __init__(self, repeats: tuple[int, ...], axis: int | None):
        self.repeats = repeats
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        repeats = self.repeats[0] if len(self.repeats) == 1 else self.repeats
        return xp.repeat(x, repeats, self.axis),

    def backward(self, indexes, grad_outputs):
        return RepeatGrad(self.repeats, self.axis, self.inputs[0].shape).apply(grad_outputs)


class RepeatGrad(FunctionNode):
    """The gradient of :class:`Repeat`: sums the gradients of the copies of each element."""

    def __init__(self, repeats: tuple[int, ...], axis: int | None, in_shape: tuple[int, ...]):
        self.repeats = repeats
        self.axis = axis
        self.in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        # Along one axis (the flattened input when axis is None), element i has copies
        # [offsets[i], offsets[i + 1]) of the output.
        axis = 0 if self.axis is None else self.axis
        shape = (int(numpy.prod(self.in_shape)),) if self.axis is None else self.in_shape
        if self.axis is None:
            gy = gy.reshape(-1)
        if len(self.repeats) == 1:
            r = self.repeats[0]
            split = shape[:axis] + (shape[axis], r) + shape[axis + 1:]
            gx = gy.reshape(split).sum(axis=axis + 1)
        else:
            gx = xp.zeros(shape, gy.dtype)
            offsets = numpy.cumsum((0,) + self.repeats)
            lead = (slice(None),) * axis
            for i, (start, stop) in enumerate(zip(offsets[:-1], offsets[1:])):
                gx[lead + (i,)] = gy[lead + (slice(int(start), int(stop)),)].sum(axis=axis)
        return gx.reshape(self.in_shape),

    def backward(self, indexes, grad_outputs):
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def repeat(x, repeats, axis=None) -> Variable:
    """Repeats each element of ``x``.

    Args:
        x (Variable or array): the input.
        repeats (int or tuple of int): the number of copies of each element (non-negative):
            one count for all, or one per element along ``axis``.
        axis (int or None): the axis along which to repeat; None repeats the elements of the
            flattened input.

    Returns:
        Variable: the repeated elements, with the dtype of ``x``: one-dimensional when ``axis``
        is None, else of the shape of ``x`` with ``axis`` lengthened.
    """
    x_array = array_input('repeat', 'x', x)
    if isinstance(repeats, (int, numpy.integer)):
        repeats = (repeats,)
    # Like NumPy, bools count as 0 or 1 repeats.
    if not isinstance(repeats, tuple) or not all(
            isinstance(r, (int, numpy.integer, numpy.bool_)) for r in repeats):
        raise TypeError(f'repeat: repeats must be an int or a tuple of ints, but got {repeats!r}')
    repeats = tuple(int(r) for r in repeats)
    if any(r < 0 for r in repeats):
        raise ValueError(f'repeat: repeats must be non-negative, but got {repeats}')
    if axis is not None:
        axis = type_check.normalize_axis('repeat', axis, x_array.ndim)
    n = x_array.size if axis is None else x_array.shape[axis]
    if len(repeats) not in (1, n):
        where = 'x' if axis is None else f'axis {axis} of x'
        raise ValueError(f'repeat: repeats must have 1 or {n} entries (the length of {where}), '
                         f'but got {len(repeats)}')
    return Repeat(repeats, axis).apply((x,))[0]
