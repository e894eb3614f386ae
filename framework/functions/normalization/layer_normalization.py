"""Layer normalization: statistics per sample, over its units."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.normalization._normalization import (
    apply_normalization,
    check_eps,
    check_parameters,
)
from framework.utils import type_check
from framework.variable import Variable


def layer_normalization(x, gamma, beta, eps: float = 1e-5) -> Variable:
    """Layer normalization: standardizes each row of ``x``, then scales and shifts each unit.

    ``y[n] = gamma * (x[n] - mean(x[n])) / sqrt(var(x[n]) + eps) + beta`` with the biased
    variance. Float16 inputs are computed in float32. Double backprop is supported.

    Args:
        x (Variable or array): a float array of shape ``(N, U)``, e.g. the output of
            :func:`~framework.functions.linear`.
        gamma (Variable or array): the scale, of shape ``(U,)`` and ``x``'s dtype.
        beta (Variable or array): the shift, of shape ``(U,)`` and ``x``'s dtype.
        eps (float): added to the variance.

    Returns:
        Variable: of the shape and dtype of ``x``.

    See: `Layer Normalization <https://arxiv.org/abs/1607.06450>`_
    """
    fname = 'layer_normalization'
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, ndim=2)
    check_parameters(fname, x_array, ('gamma', 'beta'), (gamma, beta), (x_array.shape[1],),
                     'the units, axis 1, of x')
    eps = check_eps(fname, eps)
    y, _ = apply_normalization(x, gamma, beta, (1,), (1, x_array.shape[1]), eps)
    return y
