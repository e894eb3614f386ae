"""Local response normalization across neighbouring channels (AlexNet's)."""

from __future__ import annotations

import numbers

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input, positive_int
from framework.functions.math.basic_math import mul, pow
from framework.functions.math.square import square
from framework.utils import type_check
from framework.variable import Variable


class ChannelWindowSum(FunctionNode):
    """``y[:, c] = sum of x[:, c - half_n : c + half_n + 1]`` (clipped to the channels).

    The window is symmetric, so the map is its own transpose and its own gradient.
    """

    def __init__(self, half_n: int):
        self.half_n = half_n

    def forward(self, inputs):
        x, = inputs
        y = x.copy()
        for i in range(1, self.half_n + 1):
            y[:, i:] += x[:, :-i]
            y[:, :-i] += x[:, i:]
        return y,

    def backward(self, indexes, grad_outputs):
        return ChannelWindowSum(self.half_n).apply(grad_outputs)


def _check_real(fname, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f'{fname}: {name} must be a real number, '
                        f'but got {type(value).__name__}')
    return float(value)


def local_response_normalization(x, n: int = 5, k: float = 2, alpha: float = 1e-4,
                                 beta: float = .75) -> Variable:
    """Local response normalization across neighbouring channels.

    ``y[:, c] = x[:, c] / (k + alpha * sum_j x[:, j] ** 2) ** beta``, the sum over the channels
    ``j`` from ``c - n // 2`` to ``c + n // 2`` that exist (``n + 1`` channels for an even
    ``n``, as in Chainer). Built from differentiable functions, so double backprop works.

    Args:
        x (Variable or array): a float array of shape ``(N, C, ...)``.
        n (int): the width of the window.
        k (float): the additive constant; keep it positive.
        alpha (float): the scale of the sum of squares.
        beta (float): the exponent.

    Returns:
        Variable: of the shape and dtype of ``x``.

    See: Section 3.3 of `ImageNet Classification with Deep Convolutional Neural Networks
    <https://papers.nips.cc/paper/4824-imagenet-classification-with-deep-convolutional-neural-networks>`_
    """
    fname = 'local_response_normalization'
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, min_ndim=2)
    n = positive_int(fname, 'n', n)
    k, alpha, beta = (_check_real(fname, name, v)
                      for name, v in (('k', k), ('alpha', alpha), ('beta', beta)))
    window_sum, = ChannelWindowSum(n // 2).apply((square(x),))
    return mul(x, pow(window_sum * alpha + k, -beta))
