"""Group normalization: statistics per sample and per group of channels."""

from __future__ import annotations

import math

from framework.functions._inputs import float_input, positive_int
from framework.functions.array.reshape import reshape
from framework.functions.normalization._normalization import (
    apply_normalization,
    check_eps,
    check_parameters,
)
from framework.utils import type_check
from framework.variable import Variable


def group_normalization(x, groups: int, gamma, beta, eps: float = 1e-5) -> Variable:
    """Group normalization: standardizes each group of channels of each sample, then scales
    and shifts each channel.

    The ``C`` channels are split into ``groups`` groups of ``C / groups`` consecutive channels;
    the mean and the (biased) variance are taken over a group's channels and all the axes
    after the channels. Float16 inputs are computed in float32. Double backprop is supported.

    Args:
        x (Variable or array): a float array of shape ``(N, C, ...)``.
        groups (int): the number of groups; it must divide ``C``.
        gamma (Variable or array): the scale, of shape ``(C,)`` and ``x``'s dtype.
        beta (Variable or array): the shift, of shape ``(C,)`` and ``x``'s dtype.
        eps (float): added to the variance.

    Returns:
        Variable: of the shape and dtype of ``x``.

    See: `Group Normalization <https://arxiv.org/abs/1803.08494>`_
    """
    fname = 'group_normalization'
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, min_ndim=2)
    groups = positive_int(fname, 'groups', groups)
    n, channels = x_array.shape[:2]
    check_parameters(fname, x_array, ('gamma', 'beta'), (gamma, beta), (channels,),
                     'the channels, axis 1, of x')
    if channels % groups:
        raise ValueError(f'{fname}: groups ({groups}) must divide the number of channels of x '
                         f'({channels}, x of shape {x_array.shape})')
    eps = check_eps(fname, eps)
    grouped = (n, groups, channels // groups, math.prod(x_array.shape[2:]))
    y, _ = apply_normalization(reshape(x, grouped), gamma, beta, (2, 3),
                     (1, groups, channels // groups, 1), eps)
    return reshape(y, x_array.shape)
