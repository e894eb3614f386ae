"""Hard sigmoid: a piecewise-linear approximation of the sigmoid."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class HardSigmoid(FunctionNode):
    """``clip(0.2 * x + 0.5, 0, 1)``; its gradient is 0 at the corners ``x = +-2.5``."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        t = x.dtype.type
        return xp.clip(x * t(0.2) + t(0.5), t(0), t(1)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x)
        slope = xp.where(abs(x.array) < 2.5, x.dtype.type(0.2), x.dtype.type(0))
        return grad_outputs[0] * slope,


def hard_sigmoid(x) -> Variable:
    """Element-wise hard-sigmoid function.

    .. math:: f(x) = 0 \\ (x < -2.5), \\quad 0.2 x + 0.5 \\ (-2.5 \\le x \\le 2.5),
        \\quad 1 \\ (x > 2.5).

    The gradient at the corners ``x == -2.5`` and ``x == 2.5`` is 0, as in Chainer.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.

    Returns:
        Variable: of the shape and dtype of ``x``, with values in :math:`[0, 1]`.
    """
    float_input('hard_sigmoid', 'x', x)
    return HardSigmoid().apply((x,))[0]
