"""Rounding down; not differentiable."""

from __future__ import annotations

from framework import backend
from framework.functions._inputs import array_input
from framework.variable import Variable


def floor(x) -> Variable:
    """Element-wise floor: the largest integer not greater than each element.

    As in Chainer, the result is not part of the computational graph: it is a new Variable
    that requires no gradient, and no gradient flows back to ``x`` through it.

    Args:
        x (Variable or array): a floating-point or integer input of any shape.

    Returns:
        Variable: of the shape and dtype of ``x``, with ``requires_grad`` False.
    """
    array = array_input('floor', 'x', x, 'fiu')
    xp = backend.get_array_module(array)
    y = xp.asarray(xp.floor(array)).astype(array.dtype, copy=False)
    return Variable(y, requires_grad=False)
