"""Linear (affine) maps: ``y = x W^T + b``."""

from __future__ import annotations

import math

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class LinearFunction(FunctionNode):
    """``x W^T (+ b)`` for ``x`` of shape ``(N, I)``, ``W`` of shape ``(O, I)`` and ``b`` of
    shape ``(O,)``; the output has x's dtype."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        y = xp.matmul(x, W.T).astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((W, gy))[0])
        if 1 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            from framework.functions.math.sum import sum as sum_
            ret.append(sum_(gy, axis=0))
        return tuple(ret)


class LinearGradData(FunctionNode):
    """The gradient of the input of a linear map: ``gy W``, of gy's dtype."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        xp = backend.get_array_module(gy)
        return xp.matmul(gy, W).astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((ggx, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((ggx, W))[0])
        return tuple(ret)


class LinearGradWeight(FunctionNode):
    """The gradient of the weight of a linear map: ``gy^T x``, of the weight's dtype."""

    def __init__(self, w_dtype):
        self.w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(gy)
        return xp.matmul(gy.T, x).astype(self.w_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((x, ggW))[0])
        return tuple(ret)


def linear(x, W, b=None, n_batch_axes: int = 1) -> Variable:
    """Linear function, or affine transformation: ``y = x W^T + b``.

    The first ``n_batch_axes`` axes of ``x`` are batch axes; the others are flattened into one
    axis of size ``I``, the input size.

    Args:
        x (Variable or array): the input, a float array of shape ``(s_1, ..., s_n)`` with
            ``n > n_batch_axes`` and ``s_{n_batch_axes+1} * ... * s_n == I``.
        W (Variable or array): the weight, a float array of shape ``(O, I)``; its dtype may
            differ from x's.
        b (None, Variable or array): the bias, of shape ``(O,)`` and x's dtype; None for none.
        n_batch_axes (int): the number of batch axes, at least 1.

    Returns:
        Variable: of shape ``(s_1, ..., s_{n_batch_axes}, O)`` and x's dtype.
    """
    if isinstance(n_batch_axes, bool) or not isinstance(n_batch_axes, int) or n_batch_axes < 1:
        raise ValueError(f'linear: n_batch_axes must be an int of at least 1, '
                         f'but got {n_batch_axes!r}')
    x_array = float_input('linear', 'x', x)
    W_array = float_input('linear', 'W', W)
    if W_array.ndim != 2:
        raise ValueError(f'linear: W must be 2-dimensional, but got shape {W_array.shape}')
    if x_array.ndim <= n_batch_axes:
        raise ValueError(f'linear: x must have more than n_batch_axes={n_batch_axes} '
                         f'dimensions, but got shape {x_array.shape}')
    batch_shape = x_array.shape[:n_batch_axes]
    in_size = math.prod(x_array.shape[n_batch_axes:])
    out_size, w_in_size = W_array.shape
    if in_size != w_in_size:
        raise ValueError(f'linear: the input size of x of shape {x_array.shape} (the product '
                         f'of its axes after the first {n_batch_axes}) must be W.shape[1] = '
                         f'{w_in_size}, but got {in_size}')
    args = [x, W]
    if b is not None:
        b_array = float_input('linear', 'b', b)
        if b_array.shape != (out_size,):
            raise ValueError(f'linear: b must have shape ({out_size},), '
                             f'but got shape {b_array.shape}')
        if b_array.dtype != x_array.dtype:
            raise TypeError(f'linear: b must have the dtype of x ({x_array.dtype}), '
                            f'but got dtype {b_array.dtype}')
        args.append(b)
    from framework.functions.array.reshape import reshape
    args[0] = reshape(x, (math.prod(batch_shape), in_size))
    y = LinearFunction().apply(args)[0]
    return reshape(y, batch_shape + (out_size,))
