"""Moving channels into spatial blocks (the inverse of :func:`space2depth`)."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input, positive_int
from framework.utils import type_check
from framework.variable import Variable


class Depth2Space(FunctionNode):

    def __init__(self, r: int):
        self.r = r

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, rrc, h, w = x.shape
        c = rrc // (r * r)
        # (n, r, r, c, h, w) -> (n, c, h, r, w, r): each offset pair becomes a block position.
        x = x.reshape(n, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
        return x.reshape(n, c, h * r, w * r),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.space2depth import Space2Depth
        return Space2Depth(self.r).apply(grad_outputs)


def depth2space(X, r: int) -> Variable:
    """Rearranges groups of ``r * r`` channels of ``X`` into ``r x r`` spatial blocks.

    Output channel ``c`` at ``(h * r + i, w * r + j)`` holds input channel
    ``(i * r + j) * C + c`` at ``(h, w)``. This is the inverse of :func:`space2depth`.

    Args:
        X (Variable or array): a floating-point array of shape ``(N, C * r * r, H, W)``.
        r (int): the size of the blocks (the upscaling factor).

    Returns:
        Variable: of shape ``(N, C, H * r, W * r)`` and the dtype of ``X``.
    """
    x = float_input('depth2space', 'X', X)
    type_check.expect_ndim('depth2space', 'X', x, 4)
    r = positive_int('depth2space', 'r', r)
    if x.shape[1] % (r * r):
        raise ValueError(f'depth2space: the channels of X must be a multiple of r * r ({r * r}), '
                         f'but got shape {x.shape}')
    return Depth2Space(r).apply((X,))[0]
