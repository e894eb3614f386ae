"""Element-wise absolute error ``|x0 - x1|``."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.loss._utils import check_error_pair, pair_grads
from framework.variable import Variable


class AbsoluteError(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return abs(x0 - x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        xp = backend.get_array_module(x0.array)
        return pair_grads(grad_outputs[0] * xp.sign(x0.array - x1.array), indexes)


def absolute_error(x0, x1) -> Variable:
    """Element-wise absolute error.

    .. math:: |x_0 - x_1|

    The gradient where ``x0 == x1`` is 0.

    Args:
        x0 (Variable or array): a floating-point array.
        x1 (Variable or array): an array of the shape and dtype of ``x0``.

    Returns:
        Variable: the absolute errors, of the shape and dtype of ``x0``.
    """
    check_error_pair('absolute_error', x0, x1)
    return AbsoluteError().apply((x0, x1))[0]
