"""Tiling: ``tile`` an array a number of times along each axis, as :func:`numpy.tile` does."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, is_int
from framework.variable import Variable


class Tile(FunctionNode):

    def __init__(self, reps: tuple[int, ...]):
        self.reps = reps

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.reshape import reshape
        from framework.functions.math.sum import sum
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        ndim = max(len(in_shape), len(self.reps))
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        shape = (1,) * (ndim - len(in_shape)) + in_shape
        # Axis 2k of the split gradient counts the copies along axis k; axis 2k + 1 is within
        # one copy.
        split = tuple(n for pair in zip(reps, shape) for n in pair)
        gx = sum(reshape(gy, split), axis=tuple(range(0, 2 * ndim, 2)))
        return reshape(gx, in_shape),


def tile(x, reps) -> Variable:
    """Constructs an array by repeating ``x`` the number of times given by ``reps``.

    Args:
        x (Variable or array): the input. With ``d = len(reps)``, an input of fewer than ``d``
            dimensions is treated as having leading axes of length 1, and ``reps`` shorter than
            ``x.ndim`` is padded with leading 1s.
        reps (int or tuple of int): the number of copies along each axis (non-negative).

    Returns:
        Variable: of ``max(d, x.ndim)`` dimensions, each the input's length times its
        repetitions, and the dtype of ``x``.
    """
    array_input('tile', 'x', x)
    if is_int(reps):
        reps = (reps,)
    if not isinstance(reps, tuple) or not all(is_int(r) for r in reps):
        raise TypeError(f'tile: reps must be an int or a tuple of ints, but got {reps!r}')
    if any(r < 0 for r in reps):
        raise ValueError(f'tile: reps must be non-negative, but got {reps}')
    return Tile(tuple(int(r) for r in reps)).apply((x,))[0]
