"""Batch normalization with fixed statistics in one kernel on a GPU."""

from __future__ import annotations

import functools

from framework import backend


@functools.cache
def _kernel(compute: str):
    cupy = backend._cupy()
    body = (f'{compute} v = (({compute})x - ({compute})mean) * ({compute})gamma '
            f'/ sqrt(({compute})var + ({compute})eps) + ({compute})beta; y = (Y)v;')
    return cupy.ElementwiseKernel('X x, P gamma, P beta, P mean, P var, float64 eps', 'Y y',
                                  body, f'fixed_batch_normalization_{compute}')


def fixed_batch_normalization(x, gamma, beta, mean, var, eps: float, param_shape,
                              compute_dtype):
    """``gamma * (x - mean) / sqrt(var + eps) + beta``, one pass over ``x``.

    Args:
        x (cupy.ndarray): the input.
        gamma, beta, mean, var (cupy.ndarray): the parameters, of one shape and dtype, which
            ``param_shape`` makes broadcast against ``x``.
        eps (float): added to the variance.
        param_shape (tuple of int): the parameters' shape against ``x``.
        compute_dtype (numpy.dtype): float32 or float64, the precision of the arithmetic.

    Returns:
        cupy.ndarray: of ``x``'s shape and dtype.
    """
    cupy = backend._cupy()
    y = cupy.empty(x.shape, x.dtype)
    compute = 'double' if compute_dtype.itemsize == 8 else 'float'
    _kernel(compute)(x, *(p.reshape(param_shape) for p in (gamma, beta, mean, var)), eps, y)
    return y
