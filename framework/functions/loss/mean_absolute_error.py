"""Mean absolute error over all elements."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.array.broadcast import broadcast_to
from framework.functions.loss._utils import check_error_pair, pair_grads
from framework.variable import Variable


class MeanAbsoluteError(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = (x0 - x1).ravel()
        return abs(diff).sum() / diff.dtype.type(diff.size),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        xp = backend.get_array_module(x0.array)
        sign = xp.sign(x0.array - x1.array)
        coeff = grad_outputs[0] * (1. / sign.size)
        return pair_grads(broadcast_to(coeff, sign.shape) * sign, indexes)


def mean_absolute_error(x0, x1) -> Variable:
    """Mean absolute error.

    .. math:: \\frac{1}{n} \\sum_i |x_{0,i} - x_{1,i}|

    where ``n`` is the number of elements. The gradient where ``x0 == x1`` is 0.

    Args:
        x0 (Variable or array): a floating-point array of any shape.
        x1 (Variable or array): an array of the shape and dtype of ``x0``.

    Returns:
        Variable: the mean, a 0-dimensional array of ``x0``'s dtype.
    """
    check_error_pair('mean_absolute_error', x0, x1)
    return MeanAbsoluteError().apply((x0, x1))[0]
