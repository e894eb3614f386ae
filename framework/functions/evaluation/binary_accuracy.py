"""Binary classification accuracy."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.loss._utils import label_input
from framework.utils import type_check
from framework.variable import Variable


class BinaryAccuracy(FunctionNode):
    """Has no gradient: its backward gives None to every input."""

    ignore_label = -1

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        count = ((y >= 0) == t).sum()
        total = xp.maximum((t != self.ignore_label).sum(), 1)
        return xp.asarray(count / total, dtype=y.dtype),

    def backward(self, indexes, grad_outputs):
        return (None,) * len(indexes)


def binary_accuracy(y, t) -> Variable:
    """Binary classification accuracy of a minibatch.

    The predicted label of an element is 1 where ``y >= 0`` and 0 elsewhere.

    Args:
        y (Variable or array): the scores, a floating-point array of any shape.
        t (Variable or array): the true labels, a signed integer array of ``y``'s shape:
            1 for positive, 0 for negative, -1 for an element to leave out. With every
            element left out the accuracy is 0.

    Returns:
        Variable: the fraction of correct predictions, a 0-dimensional array of ``y``'s dtype.
        It has no gradient.
    """
    y_array = float_input('binary_accuracy', 'y', y)
    t_array = label_input('binary_accuracy', 't', t)
    type_check.expect_same_shape('binary_accuracy', ('y', 't'), (y_array, t_array))
    return BinaryAccuracy().apply((y, t))[0]
