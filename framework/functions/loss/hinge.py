"""Hinge loss for one-of-many classification."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.array.broadcast import broadcast_to
from framework.functions.loss._utils import check_reduce, label_input
from framework.utils import type_check
from framework.variable import Variable


def _signs(xp, x, t):
    """``-1`` at the true class of each row, ``+1`` elsewhere, in ``x``'s dtype."""
    is_true = xp.arange(x.shape[1]) == t[:, None]
    return (1 - 2 * is_true).astype(x.dtype)


class Hinge(FunctionNode):

    def __init__(self, norm: str, reduce: str):
        self.norm = norm
        self.reduce = reduce

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        margin = xp.maximum(1 + _signs(xp, x, t) * x, 0)
        loss = margin if self.norm == 'L1' else margin * margin
        if self.reduce == 'mean':
            return loss.sum() / x.dtype.type(len(x)),
        return loss,

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return (None,) * len(indexes)
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(x.array)
        signs = _signs(xp, x.array, t.array)
        active = (1 + signs * x.array > 0).astype(x.dtype)
        if self.reduce == 'mean':
            gy = broadcast_to(gy * (1. / len(x)), x.shape)
        if self.norm == 'L1':
            gx = gy * (active * signs)
        else:
            # d/dx max(0, 1 + s x)^2 = 2 s (1 + s x) = 2 (s + x) where active, as s * s = 1
            gx = gy * 2 * (x * active + active * signs)
        return tuple(gx if i == 0 else None for i in indexes)


def hinge(x, t, norm: str = 'L1', reduce: str = 'mean') -> Variable:
    """Hinge loss for a one-of-many classification task.

    .. math::

        L = \\frac{1}{N} \\sum_{n=1}^N \\sum_{k=1}^K
            \\left[\\max(0, 1 - \\delta\\{t_n = k\\} x_{nk})\\right]^p

    where :math:`\\delta\\{c\\}` is 1 if the condition holds and -1 otherwise, and ``p`` is 1
    for ``norm='L1'`` and 2 for ``norm='L2'``. The gradient where ``1 - delta x`` is 0 is 0.

    Args:
        x (Variable or array): the scores, a floating-point array of shape ``(N, K)``.
        t (Variable or array): the labels, a signed integer array of shape ``(N,)`` with
            values in ``[0, K)``.
        norm (str): ``'L1'`` or ``'L2'``.
        reduce (str): ``'mean'`` for the mean over the batch of the summed losses, ``'no'``
            for the element-wise losses.

    Returns:
        Variable: of ``x``'s dtype; 0-dimensional for ``reduce='mean'``, of shape ``(N, K)``
        for ``reduce='no'``. Differentiable with respect to ``x`` only.

    Raises:
        NotImplementedError: for a ``norm`` other than ``'L1'`` and ``'L2'``, as in Chainer.
    """
    if norm not in ('L1', 'L2'):
        raise NotImplementedError(f"hinge: norm must be 'L1' or 'L2', but got {norm!r}")
    check_reduce('hinge', reduce, ('mean', 'no'))
    x_array = float_input('hinge', 'x', x)
    t_array = label_input('hinge', 't', t)
    type_check.expect_ndim('hinge', 'x', x_array, 2)
    type_check.expect_shape('hinge', 't', t_array, (x_array.shape[0],))
    return Hinge(norm, reduce).apply((x, t))[0]
