"""Swish: ``x * sigmoid(beta * x)`` with a per-channel parameter ``beta``."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation._utils import (
    channel_param,
    channel_reduce_axes,
    channel_shape,
)
from framework.functions.activation.sigmoid import sigmoid, sigmoid_array
from framework.functions.array.reshape import reshape
from framework.functions.math.sum import sum as _sum
from framework.variable import Variable


class Swish(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, beta = inputs
        return x * sigmoid_array(beta.reshape(channel_shape(beta.shape, x.ndim)) * x),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        gy, = grad_outputs
        beta_b = reshape(beta, channel_shape(beta.shape, x.ndim))
        s = sigmoid(beta_b * x)
        y = x * s
        ret = []
        if 0 in indexes:
            by = beta_b * y
            ret.append(gy * (by + s * (1 - by)))
        if 1 in indexes:
            ret.append(_sum(gy * y * (x - y), axis=channel_reduce_axes(beta.ndim, x.ndim)))
        return tuple(ret)


def swish(x, beta) -> Variable:
    """Swish activation function, :math:`f(x, \\beta) = x \\cdot \\sigma(\\beta x)`.

    :math:`\\sigma` is the sigmoid; ``f(x, 0) = x / 2`` and ``f`` tends to the rectifier as
    :math:`\\beta` grows. See https://arxiv.org/abs/1710.05941.

    Args:
        x (Variable or array): a float array of shape :math:`(s_B, s_1, ..., s_N)`, the first
            axis being the minibatch.
        beta (Variable or array): the parameter, of the dtype of ``x`` and of shape
            :math:`(s_1, ..., s_M)` with :math:`0 \\le M \\le N`; it is broadcast along the
            minibatch axis and the trailing axes.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('swish', 'x', x)
    channel_param('swish', x, beta, 'beta')
    return Swish().apply((x, beta))[0]
