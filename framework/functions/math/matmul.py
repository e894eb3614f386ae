"""Matrix products: ``matmul`` (NumPy's semantics, with transposes) and the legacy
``batch_matmul``."""

from __future__ import annotations

import warnings

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable


class MatMul(FunctionNode):
    """``op(a) @ op(b)`` for operands of at least 2 dimensions, whose leading (batch) axes
    broadcast; ``op`` transposes the last two axes where asked. The output has ``dtype``, or the
    promoted dtype of the operands when it is None."""

    def __init__(self, transa: bool = False, transb: bool = False, dtype=None):
        self.transa = transa
        self.transb = transb
        self.dtype = dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a)
        if self.transa:
            a = xp.swapaxes(a, -1, -2)
        if self.transb:
            b = xp.swapaxes(b, -1, -2)
        y = xp.matmul(a, b)
        if self.dtype is not None:
            y = y.astype(self.dtype, copy=False)
        return y,

    def backward(self, indexes, grad_outputs):
        from framework.functions.math.sum import sum_to
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            # d op(a) = gy @ op(b)^T, transposed back when a was transposed.
            if self.transa:
                ga = MatMul(self.transb, True, a.dtype).apply((b, gy))[0]
            else:
                ga = MatMul(False, not self.transb, a.dtype).apply((gy, b))[0]
            ret.append(sum_to(ga, a.shape))
        if 1 in indexes:
            # d op(b) = op(a)^T @ gy, transposed back when b was transposed.
            if self.transb:
                gb = MatMul(True, self.transa, b.dtype).apply((gy, a))[0]
            else:
                gb = MatMul(not self.transa, False, b.dtype).apply((a, gy))[0]
            ret.append(sum_to(gb, b.shape))
        return tuple(ret)


def _check_operands(fname, a, b, transa, transb):
    a_array = float_input(fname, 'a', a)
    b_array = float_input(fname, 'b', b)
    for name, x in (('a', a_array), ('b', b_array)):
        if x.ndim == 0:
            raise ValueError(f'{fname}: {name} must have at least 1 dimension, '
                             f'but got shape {x.shape}')
    a_inner = a_array.shape[-2 if transa and a_array.ndim > 1 else -1]
    if b_array.ndim == 1:
        b_inner = b_array.shape[0]
    else:
        b_inner = b_array.shape[-1 if transb else -2]
    if a_inner != b_inner:
        raise ValueError(f'{fname}: the inner dimensions of a of shape {a_array.shape} '
                         f'(transa={transa}) and b of shape {b_array.shape} (transb={transb}) '
                         f'must agree, but got {a_inner} and {b_inner}')
    try:
        numpy.broadcast_shapes(a_array.shape[:-2], b_array.shape[:-2])
    except ValueError:
        raise ValueError(f'{fname}: the batch shapes of a {a_array.shape[:-2]} and b '
                         f'{b_array.shape[:-2]} (all but the last two axes) must broadcast '
                         'together') from None
    return a_array, b_array


def matmul(a, b, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product of two arrays, with NumPy's ``matmul`` semantics.

    Two 1-D operands give their dot product; 2-D operands, the matrix product; operands of more
    dimensions are stacks of matrices in their last two axes, whose leading axes broadcast. A
    1-D ``a`` is a row vector and a 1-D ``b`` a column vector, whose axis is then removed from
    the result.

    Args:
        a (Variable or array): the left operand, a float array of at least 1 dimension.
        b (Variable or array): the right operand, a float array of at least 1 dimension.
        transa (bool): transpose each matrix of ``a`` (ignored when ``a`` is 1-D).
        transb (bool): transpose each matrix of ``b`` (ignored when ``b`` is 1-D).

    Returns:
        Variable: the product, of the promoted dtype of ``a`` and ``b``; e.g. of shape
        ``(B, M, N)`` for ``a`` of shape ``(B, M, K)`` and ``b`` of shape ``(K, N)``.
    """
    from framework.functions.array.reshape import reshape
    a_array, b_array = _check_operands('matmul', a, b, transa, transb)
    if a_array.ndim == 1:
        a, transa = reshape(a, (1, a_array.size)), False
    if b_array.ndim == 1:
        b, transb = reshape(b, (b_array.size, 1)), False
    y = MatMul(transa, transb).apply((a, b))[0]
    shape = y.shape[:-2]
    if a_array.ndim > 1:
        shape += (y.shape[-2],)
    if b_array.ndim > 1:
        shape += (y.shape[-1],)
    return reshape(y, shape)


def batch_matmul(a, b, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix products of two batches of matrices (deprecated, as in Chainer: use
    :func:`matmul`).

    A 2-D operand of shape ``(B, N)`` is a batch of ``N x 1`` matrices; a 3-D one of shape
    ``(B, M, N)``, a batch of ``M x N`` matrices.

    Args:
        a (Variable or array): the left operands, a float array of 2 or 3 dimensions.
        b (Variable or array): the right operands, a float array of 2 or 3 dimensions.
        transa (bool): transpose each matrix of ``a``.
        transb (bool): transpose each matrix of ``b``.

    Returns:
        Variable: the products, of shape ``(B, M, N)``, always 3-D.

    Warns:
        DeprecationWarning: on every call.
    """
    from framework.functions.array.reshape import reshape
    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning,
                  stacklevel=2)
    operands = []
    for name, x in (('a', a), ('b', b)):
        array = float_input('batch_matmul', name, x)
        if array.ndim not in (2, 3):
            raise ValueError(f'batch_matmul: {name} must be 2- or 3-dimensional, '
                             f'but got shape {array.shape}')
        operands.append(reshape(x, array.shape + (1,)) if array.ndim == 2 else x)
    a, b = operands
    _check_operands('batch_matmul', a, b, transa, transb)
    return MatMul(transa, transb).apply((a, b))[0]
