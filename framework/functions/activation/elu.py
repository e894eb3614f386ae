"""Exponential linear unit."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import real_scalar
from framework.variable import Variable


class ELU(FunctionNode):
    """``x`` where ``x > 0``, ``alpha * (exp(x) - 1)`` elsewhere."""

    def __init__(self, alpha: float):
        self.alpha = alpha

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        zero = x.dtype.type(0)
        # With a negative alpha the output no longer has the sign of the input; keep the input
        # to tell the two pieces apart (as Chainer does).
        if self.alpha < 0:
            self.retain_inputs((0,))
        self.retain_outputs((0,))
        negative = x.dtype.type(self.alpha) * xp.expm1(xp.minimum(x, zero))
        return xp.where(x > 0, x, negative),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        cond = self.get_retained_inputs()[0] if self.alpha < 0 else y
        return grad_outputs[0] * ELUGrad(self.alpha, cond.array > 0).apply((y,))[0],


class ELUGrad(FunctionNode):
    """The derivative of ELU from its output ``y``: 1 where ``x > 0``, ``y + alpha`` elsewhere.

    Args:
        alpha: ELU's parameter.
        positive (bool array): where ``x > 0``.
    """

    def __init__(self, alpha: float, positive):
        self.alpha = alpha
        self.positive = positive

    def forward(self, inputs):
        y, = inputs
        xp = backend.get_array_module(y)
        return xp.where(self.positive, y.dtype.type(1), y + y.dtype.type(self.alpha)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return gy * (~self.positive).astype(gy.dtype),


def elu(x, alpha: float = 1.0) -> Variable:
    """Exponential Linear Unit function.

    .. math:: f(x) = x \\ (x > 0), \\quad \\alpha (\\exp(x) - 1) \\ (x \\le 0).

    The gradient at ``x == 0`` is ``alpha``, as in Chainer. See https://arxiv.org/abs/1511.07289.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        alpha (float): the parameter :math:`\\alpha`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('elu', 'x', x)
    alpha = real_scalar('elu', 'alpha', alpha)
    return ELU(alpha).apply((x,))[0]
