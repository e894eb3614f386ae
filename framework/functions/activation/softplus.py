"""Softplus: a smooth approximation of the rectifier."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import real_scalar
from framework.functions.activation.sigmoid import sigmoid
from framework.variable import Variable


class Softplus(FunctionNode):

    def __init__(self, beta: float):
        self.beta = beta

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        bx = x * x.dtype.type(self.beta)
        # log(1 + exp(bx)) = max(bx, 0) + log(1 + exp(-|bx|)), which never overflows.
        y = xp.maximum(bx, x.dtype.type(0)) + xp.log1p(xp.exp(-abs(bx)))
        return y * x.dtype.type(1.0 / self.beta),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sigmoid(x * self.beta),


def softplus(x, beta: float = 1.0) -> Variable:
    """Element-wise softplus function, a smooth approximation of the rectifier.

    .. math:: f(x) = \\frac{1}{\\beta} \\log(1 + \\exp(\\beta x)).

    Its gradient is the sigmoid of :math:`\\beta x`. The larger :math:`\\beta`, the closer the
    function is to the rectifier.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        beta (float): the parameter :math:`\\beta`, non-zero.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('softplus', 'x', x)
    beta = real_scalar('softplus', 'beta', beta)
    if beta == 0:
        raise ValueError('softplus: beta must be non-zero, but got 0.0')
    return Softplus(beta).apply((x,))[0]
