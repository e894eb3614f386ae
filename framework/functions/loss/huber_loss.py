"""Huber loss: quadratic near 0, linear far from it."""

from __future__ import annotations

import numbers

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.array.broadcast import broadcast_to
from framework.functions.array.reshape import reshape
from framework.functions.loss._utils import check_error_pair, check_reduce, pair_grads
from framework.functions.math.clip import clip
from framework.utils import type_check
from framework.variable import Variable, as_array


class HuberLoss(FunctionNode):

    def __init__(self, delta: float, reduce: str):
        self.delta = delta
        self.reduce = reduce

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        delta = x.dtype.type(self.delta)
        half = x.dtype.type(0.5)
        abs_diff = abs(x - t)
        beyond = xp.maximum(abs_diff - delta, 0)
        y = (abs_diff * abs_diff - beyond * beyond) * half
        if self.reduce == 'sum_along_second_axis':
            y = y.sum(axis=1)
        return y,

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        diff = x - t
        if self.reduce == 'sum_along_second_axis':
            gy = reshape(gy, gy.shape[:1] + (1,) + gy.shape[1:])
        return pair_grads(broadcast_to(gy, diff.shape) * clip(diff, -self.delta, self.delta),
                          indexes)


def huber_loss(x, t, delta: float, reduce: str = 'sum_along_second_axis') -> Variable:
    """Huber loss, less sensitive to outliers than the squared error.

    .. math::

        L_\\delta(a) = \\left\\{ \\begin{array}{ll}
            \\frac{1}{2} a^2 & {\\rm if~} |a| \\leq \\delta \\\\
            \\delta (|a| - \\frac{1}{2} \\delta) & {\\rm otherwise}
        \\end{array} \\right.

    where :math:`a = x - t`. Its gradient with respect to ``x`` is
    ``clip(x - t, -delta, delta)``.

    Args:
        x (Variable or array): the predictions, a floating-point array; of shape
            ``(N, K, ...)`` with ``reduce='sum_along_second_axis'``.
        t (Variable or array): the targets, of the shape and dtype of ``x``.
        delta (float): where the loss turns from quadratic to linear.
        reduce (str): ``'sum_along_second_axis'`` to sum the losses along axis 1, ``'no'`` for
            the element-wise losses.

    Returns:
        Variable: of ``x``'s dtype; of ``x``'s shape without axis 1 with
        ``reduce='sum_along_second_axis'``, of ``x``'s shape with ``reduce='no'``.
    """
    check_reduce('huber_loss', reduce, ('sum_along_second_axis', 'no'))
    check_error_pair('huber_loss', x, t, ('x', 't'))
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise TypeError(f'huber_loss: delta must be a real number, but got {type(delta).__name__}')
    if not delta > 0:
        raise ValueError(f'huber_loss: delta must be positive, but got {delta}')
    if reduce == 'sum_along_second_axis':
        type_check.expect_ndim('huber_loss', 'x', as_array(x), min_ndim=2)
    return HuberLoss(delta, reduce).apply((x, t))[0]
