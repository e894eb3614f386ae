"""What follows a convolution's matrix product in a static graph, in one pass on a GPU."""

from __future__ import annotations

import functools

from framework import backend


@functools.cache
def _kernel(bias: bool, residual: bool, activation: tuple | None):
    cupy = backend._cupy()
    params = [name for name, present in (('T b', bias), ('T r', residual),
                                         ('T cap', activation is not None
                                          and activation[0] == 'clip')) if present]
    body = ['T v = y;']
    if bias:
        body.append('v += b;')
    if residual:
        body.append('v += r;')
    if activation is not None:
        # NaN stays NaN, as in maximum and clip
        body.append('v = v < (T)0 ? (T)0 : v;')
        if activation[0] == 'clip':
            body.append('v = v > cap ? cap : v;')
    body.append('y = v;')
    name = 'conv_epilogue' + ''.join(f'_{part}' for part, present in (
        ('bias', bias), ('residual', residual), (activation and activation[0], activation))
        if present)
    return cupy.ElementwiseKernel(', '.join(params), 'T y', ' '.join(body), name)


def conv_epilogue(y, b=None, residual=None, activation=None) -> None:
    """``y = activation(y + b + residual)`` in place, in one kernel.

    Args:
        y (cupy.ndarray): the product, ``(..., O)``, written over.
        b (None or cupy.ndarray): the bias ``(O,)``, of y's dtype; None for none.
        residual (None or cupy.ndarray): of y's shape and dtype; None for none.
        activation (None or tuple): ``('relu',)`` or ``('clip', cap)``; None for none.
    """
    if b is None and residual is None and activation is None:
        return
    args = [a for a in (b, residual) if a is not None]
    if activation is not None and activation[0] == 'clip':
        args.append(y.dtype.type(activation[1]))
    _kernel(b is not None, residual is not None,
            None if activation is None else tuple(activation))(*args, y)
