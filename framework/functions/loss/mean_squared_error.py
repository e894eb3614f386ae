"""Mean squared error over all elements."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.array.broadcast import broadcast_to
from framework.functions.loss._utils import check_error_pair, pair_grads
from framework.variable import Variable


class MeanSquaredError(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = (x0 - x1).ravel()
        return xp.dot(diff, diff) / diff.dtype.type(diff.size),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        diff = x0 - x1
        gx0 = broadcast_to(grad_outputs[0], diff.shape) * diff * (2. / diff.size)
        return pair_grads(gx0, indexes)


def mean_squared_error(x0, x1) -> Variable:
    """Mean squared error (Euclidean loss), not scaled by 1/2.

    .. math:: \\frac{1}{n} \\sum_i (x_{0,i} - x_{1,i})^2

    where ``n`` is the number of elements.

    Args:
        x0 (Variable or array): a floating-point array of any shape.
        x1 (Variable or array): an array of the shape and dtype of ``x0``.

    Returns:
        Variable: the mean, a 0-dimensional array of ``x0``'s dtype.
    """
    check_error_pair('mean_squared_error', x0, x1)
    return MeanSquaredError().apply((x0, x1))[0]
