"""Broadcasting: ``broadcast_to`` a shape and ``broadcast`` inputs against each other."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, shape_input
from framework.utils import type_check
from framework.variable import Variable, as_array


class BroadcastTo(FunctionNode):

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.broadcast_to(x, self.shape),

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.sum import sum_to
        return sum_to(grad_outputs[0], self.inputs[0].shape),


def broadcast_to(x, shape) -> Variable:
    """Broadcasts ``x`` to ``shape`` as NumPy does.

    Args:
        x (Variable or array): the input.
        shape (tuple of int): the target shape.

    Returns:
        Variable: a read-only broadcast view of shape ``shape``.
    """
    shape = shape_input('broadcast_to', shape)
    x_shape = array_input('broadcast_to', 'x', x).shape
    if x_shape == shape:
        return x if isinstance(x, Variable) else Variable(x, requires_grad=False)
    lead = len(shape) - len(x_shape)
    if lead < 0 or any(s < 0 for s in shape) or any(
            s not in (1, t) for s, t in zip(x_shape, shape[lead:])):
        raise ValueError(f'broadcast_to: x of shape {x_shape} cannot be broadcast to {shape}')
    return BroadcastTo(shape).apply((x,))[0]


def broadcast(*args) -> Variable | tuple[Variable, ...]:
    """Broadcasts the inputs against each other.

    Returns:
        Variable or tuple of Variable: one per input (a single Variable for a single input).
    """
    arrays = [as_array(a) for a in args]
    shape = type_check.expect_broadcastable(
        'broadcast', [f'args[{i}]' for i in range(len(args))], arrays)
    ys = tuple(broadcast_to(a, shape) for a in args)
    return ys[0] if len(ys) == 1 else ys
