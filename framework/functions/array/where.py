"""Choosing elements of one of two inputs by a boolean condition."""

from __future__ import annotations

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.utils import type_check
from framework.variable import Variable


class Where(FunctionNode):
    """Chooses from its two inputs; the condition is a constant of the node."""

    def __init__(self, condition):
        self.condition = condition

    def forward(self, inputs):
        x, y = inputs
        xp = backend.get_array_module(x, y)
        return xp.where(self.condition, x, y),

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.sum import sum_to
        g, = grad_outputs
        zero = g.xp.zeros((), g.dtype)
        ret = []
        for i in indexes:
            chosen, = Where(self.condition).apply((g, zero) if i == 0 else (zero, g))
            ret.append(sum_to(chosen, self.inputs[i].shape))
        return tuple(ret)


def where(condition, x, y) -> Variable:
    """Chooses elements of ``x`` where ``condition`` holds and of ``y`` elsewhere.

    The three inputs broadcast against each other. ``condition`` is not differentiated.

    Args:
        condition (Variable, array or bool): the boolean condition.
        x (Variable or array): the values chosen where ``condition`` is True.
        y (Variable or array): the values chosen where it is False; of the dtype of ``x``.

    Returns:
        Variable: of the broadcast shape of the three inputs and the dtype of ``x``.
    """
    x_array = array_input('where', 'x', x)
    y_array = array_input('where', 'y', y)
    if isinstance(condition, (bool, numpy.bool_)):
        condition = backend.get_array_module(x_array).asarray(condition)
    else:
        condition = array_input('where', 'condition', condition)
    type_check.expect_dtype('where', 'condition', condition, numpy.bool_)
    type_check.expect_same_dtype('where', ('x', 'y'), (x_array, y_array))
    type_check.expect_broadcastable('where', ('condition', 'x', 'y'),
                                    (condition, x_array, y_array))
    backend.same_device('where', (condition, x_array, y_array), ('condition', 'x', 'y'))
    return Where(condition).apply((x, y))[0]
