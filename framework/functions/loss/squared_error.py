"""Element-wise squared error ``(x0 - x1) ** 2``."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions.loss._utils import check_error_pair, pair_grads
from framework.variable import Variable


class SquaredError(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = x0 - x1
        return diff * diff,

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        return pair_grads(grad_outputs[0] * 2 * (x0 - x1), indexes)


def squared_error(x0, x1) -> Variable:
    """Element-wise squared error, not scaled by 1/2.

    .. math:: (x_0 - x_1)^2

    Args:
        x0 (Variable or array): a floating-point array.
        x1 (Variable or array): an array of the shape and dtype of ``x0``.

    Returns:
        Variable: the squared errors, of the shape and dtype of ``x0``.
    """
    check_error_pair('squared_error', x0, x1)
    return SquaredError().apply((x0, x1))[0]
