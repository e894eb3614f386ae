"""L2 normalization along some axes."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._dtypes import compute_dtype
from framework.functions._inputs import float_input
from framework.functions.math.sqrt import sqrt
from framework.functions.math.square import square
from framework.functions.math.sum import sum as sum_
from framework.functions.normalization._normalization import check_eps
from framework.utils import type_check
from framework.variable import Variable


class NormalizeL2(FunctionNode):
    """``x -> x / (||x|| + eps)``, the norm taken over ``axes``."""

    def __init__(self, eps: float, axes: tuple[int, ...]):
        self.eps = eps
        self.axes = axes

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        xc = x.astype(compute_dtype(x.dtype), copy=False)
        norm = xp.sqrt(xp.square(xc).sum(axis=self.axes, keepdims=True)) + self.eps
        return (xc / norm).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        squares = sum_(square(x), axis=self.axes, keepdims=True)
        # The norm of a zero vector has no derivative; as in Chainer, its gradient is then
        # gy / eps. sqrt(squares + 1) there keeps double backprop free of NaN.
        nonzero = (squares.array != 0).astype(x.dtype)
        safe_norm = sqrt(squares + (1 - nonzero))
        norm = safe_norm * nonzero + self.eps
        x_gy = sum_(x * gy, axis=self.axes, keepdims=True)
        coefficient = x_gy * nonzero / (safe_norm * norm * norm)
        return gy / norm - x * coefficient,


def normalize(x, eps: float = 1e-5, axis=1) -> Variable:
    """L2 normalization: ``y = x / (||x||_2 + eps)``, the norm taken along ``axis``.

    Args:
        x (Variable or array): a float array, e.g. of shape ``(N, K)``.
        eps (float): added to the norm, so that zero vectors give zeros.
        axis (int or tuple of int): the axes the norm is taken over.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    fname = 'normalize'
    x_array = float_input(fname, 'x', x)
    eps = check_eps(fname, eps)
    if isinstance(axis, list):
        axis = tuple(axis)
    axes = type_check.normalize_axes(fname, axis, x_array.ndim)
    if axes is None:
        raise TypeError(f'{fname}: axis must be an int or a tuple of ints, but got None')
    return NormalizeL2(eps, axes).apply((x,))[0]
