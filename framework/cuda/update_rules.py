"""Optimizer updates in one kernel per parameter on a GPU (as Chainer's update rules)."""

from __future__ import annotations

import functools

from framework import backend


@functools.cache
def _kernels():
    cupy = backend._cupy()
    return {
        'sgd': cupy.ElementwiseKernel('T grad, T lr', 'T param', 'param -= lr * grad', 'sgd'),
        'momentum_sgd': cupy.ElementwiseKernel(
            'T grad, T lr, T momentum', 'T param, T v',
            'v = momentum * v - lr * grad; param += v;', 'momentum_sgd'),
    }


def sgd(param, grad, lr: float) -> None:
    """``param -= lr * grad`` in place (``grad`` in ``param``'s dtype)."""
    _kernels()['sgd'](grad.astype(param.dtype, copy=False), lr, param)


def momentum_sgd(param, grad, v, lr: float, momentum: float) -> None:
    """``v = momentum * v - lr * grad; param += v`` in place (``grad`` and ``v`` in
    ``param``'s dtype)."""
    _kernels()['momentum_sgd'](grad.astype(param.dtype, copy=False), lr, momentum, param, v)
