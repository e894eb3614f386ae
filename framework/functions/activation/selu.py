"""Scaled exponential linear unit."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.activation._utils import real_scalar
from framework.functions.activation.elu import ELU
from framework.variable import Variable


def selu(x, alpha: float = 1.6732632423543772848170429916717,
         scale: float = 1.0507009873554804934193349852946) -> Variable:
    """Scaled Exponential Linear Unit function, ``scale * elu(x, alpha)``.

    .. math:: f(x) = \\lambda x \\ (x > 0), \\quad \\lambda \\alpha (\\exp(x) - 1) \\ (x \\le 0).

    The gradient at ``x == 0`` is ``scale * alpha``. See https://arxiv.org/abs/1706.02515.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        alpha (float): the parameter :math:`\\alpha`.
        scale (float): the parameter :math:`\\lambda`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    float_input('selu', 'x', x)
    alpha = real_scalar('selu', 'alpha', alpha)
    scale = real_scalar('selu', 'scale', scale)
    return ELU(alpha).apply((x,))[0] * scale
