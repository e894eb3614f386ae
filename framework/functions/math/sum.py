"""Sums: ``sum`` over axes and ``sum_to`` a shape (the adjoint of broadcasting)."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math._reduction import broadcast_over_axes, normalize_axis_argument
from framework.variable import Variable, as_array


class Sum(FunctionNode):

    def __init__(self, axis: tuple[int, ...] | None, keepdims: bool):
        self.axis = axis
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        return x.sum(axis=self.axis, keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        return broadcast_over_axes(grad_outputs[0], self.inputs[0].shape, self.axis),


def sum(x, axis=None, keepdims: bool = False) -> Variable:
    """Sum of the elements over the given axes.

    Args:
        x (Variable or array): a floating-point input.
        axis (None, int or tuple of int): the axes to sum over; None for all.
        keepdims (bool): keep the summed axes as axes of length 1.

    Returns:
        Variable: the sums, of the dtype of ``x``.
    """
    x_array = float_input('sum', 'x', x)
    axis = normalize_axis_argument('sum', axis, x_array.ndim)
    return Sum(axis, keepdims).apply((x,))[0]


def _sum_to_array(x, shape):
    """Sums the array ``x`` down to ``shape`` (which ``x``'s shape broadcasts from)."""
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1)
    y = x.sum(axis=axes, keepdims=True) if axes else x
    return y.reshape(shape) if lead else y


class SumTo(FunctionNode):

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape

    def forward(self, inputs):
        x, = inputs
        return _sum_to_array(x, self.shape),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.broadcast import broadcast_to
        return broadcast_to(grad_outputs[0], self.inputs[0].shape),


def sum_to(x, shape) -> Variable:
    """Sums ``x`` over the axes that broadcasting to ``x.shape`` from ``shape`` would add.

    Args:
        x (Variable or array): the input.
        shape (tuple of int): the shape to sum to; ``x.shape`` must be broadcastable from it.

    Returns:
        Variable: of shape ``shape``; ``x`` itself (as a Variable) when it has that shape.
    """
    shape = tuple(shape)
    x_shape = as_array(x).shape
    lead = len(x_shape) - len(shape)
    if lead < 0 or any(s not in (1, t) for s, t in zip(shape, x_shape[lead:])):
        raise ValueError(f'sum_to: shape {shape} must broadcast to the shape of x {x_shape}')
    if x_shape == shape:
        return x if isinstance(x, Variable) else Variable(x, requires_grad=False)
    return SumTo(shape).apply((x,))[0]
