"""Reshaping without copying data."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, shape_input
from framework.variable import Variable


class Reshape(FunctionNode):

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape

    def forward(self, inputs):
        x, = inputs
        return x.reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self.inputs[0].shape),


def reshape(x, shape) -> Variable:
    """Gives ``x`` a new shape with the same number of elements.

    Args:
        x (Variable or array): the input.
        shape (int or tuple of int): the new shape; one entry may be -1 (inferred).

    Returns:
        Variable: the reshaped input.
    """
    x_array = array_input('reshape', 'x', x)
    shape = shape_input('reshape', shape)
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise ValueError(f'reshape: shape may contain one -1 and otherwise non-negative sizes, '
                         f'but got {shape}')
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    size = x_array.size
    if (-1 in shape and (known == 0 or size % known)) or (-1 not in shape and known != size):
        raise ValueError(f'reshape: x of shape {x_array.shape} ({size} elements) cannot be '
                         f'reshaped to {shape}')
    if x_array.shape == shape:
        return x if isinstance(x, Variable) else Variable(x, requires_grad=False)
    return Reshape(shape).apply((x,))[0]
