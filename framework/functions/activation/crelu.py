"""Concatenated rectified linear unit."""

from __future__ import annotations

from framework.functions._inputs import float_input
from framework.functions.activation.relu import relu
from framework.functions.array.concat import concat
from framework.functions.math.basic_math import neg
from framework.utils import type_check
from framework.variable import Variable


def crelu(x, axis: int = 1) -> Variable:
    """Concatenated Rectified Linear Unit function, :math:`f(x) = (\\max(0, x), \\max(0, -x))`.

    The two halves are concatenated along ``axis``. The gradient at ``x == 0`` is 0, as in
    Chainer. See https://arxiv.org/abs/1603.05201.

    Args:
        x (Variable or array): a float array of shape :math:`(s_1, ..., s_N)`.
        axis (int): the axis along which the halves are concatenated; negative values count
            from the end.

    Returns:
        Variable: of the dtype of ``x`` and of its shape except that the ``axis`` dimension is
        doubled, e.g. :math:`(s_1, 2 s_2, ..., s_N)` for ``axis=1``.
    """
    x_array = float_input('crelu', 'x', x)
    axis = type_check.normalize_axis('crelu', axis, x_array.ndim)
    return concat((relu(x), relu(neg(x))), axis=axis)
