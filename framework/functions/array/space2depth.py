"""Moving spatial blocks into channels (the inverse of :func:`depth2space`)."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions._inputs import float_input, positive_int
from framework.utils import type_check
from framework.variable import Variable


class Space2Depth(FunctionNode):

    def __init__(self, r: int):
        self.r = r

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, c, h, w = x.shape
        # (n, c, h, w) -> (n, r, r, c, h / r, w / r): the offsets inside a block lead.
        x = x.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4)
        return x.reshape(n, r * r * c, h // r, w // r),

    def backward(self, indexes, grad_outputs):
        from framework.functions.array.depth2space import Depth2Space
        return Depth2Space(self.r).apply(grad_outputs)


def space2depth(X, r: int) -> Variable:
    """Rearranges each ``r x r`` spatial block of ``X`` into channels.

    Output channel ``(i * r + j) * C + c`` at ``(h, w)`` holds input channel ``c`` at
    ``(h * r + i, w * r + j)``. This is the inverse of :func:`depth2space`.

    Args:
        X (Variable or array): a floating-point array of shape ``(N, C, H * r, W * r)``.
        r (int): the size of the blocks (the downscaling factor).

    Returns:
        Variable: of shape ``(N, C * r * r, H, W)`` and the dtype of ``X``.
    """
    x = float_input('space2depth', 'X', X)
    type_check.expect_ndim('space2depth', 'X', x, 4)
    r = positive_int('space2depth', 'r', r)
    if x.shape[2] % r or x.shape[3] % r:
        raise ValueError(f'space2depth: the height and width of X must be multiples of r ({r}), '
                         f'but got shape {x.shape}')
    return Space2Depth(r).apply((X,))[0]
