"""Product of the elements over axes."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math._reduction import broadcast_over_axes, normalize_axis_argument
from framework.variable import Variable


class Prod(FunctionNode):

    def __init__(self, axes: tuple[int, ...] | None, keepdims: bool):
        self.axes = axes
        self.keepdims = keepdims

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x.prod(axis=self.axes, keepdims=self.keepdims),

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.cumprod import exclusive_cumprods
        x, = self.get_retained_inputs()
        axes = tuple(range(x.ndim)) if self.axes is None else self.axes
        # The derivative by x_i is the product of the other elements: the products before
        # and after it, computed without division so that zeros are handled exactly.
        left, right = exclusive_cumprods(x, axes)
        return broadcast_over_axes(grad_outputs[0], x.shape, self.axes) * (left * right),


def prod(x, axis=None, keepdims: bool = False) -> Variable:
    """Product of the elements over the given axes.

    The gradient of each element is the product of the other elements of its slice, computed
    without division: it is exact where the input has zeros, and differentiable again.

    Args:
        x (Variable or array): the input, a float array.
        axis (None, int or tuple of int): the axes to multiply over; None for all.
        keepdims (bool): keep the reduced axes as axes of length 1.

    Returns:
        Variable: the products, of x's dtype.
    """
    x_array = float_input('prod', 'x', x)
    axes = normalize_axis_argument('prod', axis, x_array.ndim)
    return Prod(axes, keepdims).apply((x,))[0]
