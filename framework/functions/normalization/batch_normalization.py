"""Batch normalization: with the statistics of the batch (training) or given ones (inference)."""

from __future__ import annotations

import numbers
import warnings

from framework import backend
from framework.cuda import batch_normalization as cuda_batch_normalization
from framework.cuda import is_cupy
from framework.function_node import FunctionNode
from framework.functions._dtypes import compute_dtype
from framework.functions._inputs import float_input
from framework.functions.array.reshape import reshape
from framework.functions.math.sqrt import rsqrt
from framework.functions.math.sum import sum_to
from framework.functions.normalization._normalization import (
    apply_normalization,
    check_eps,
    check_parameters,
)
from framework.utils import type_check
from framework.variable import Variable


def _axes(fname: str, x, gamma, axis) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Chainer's rule for ``axis``: the normalized axes and the parameters' (key) axes.

    With ``axis`` None the statistics are taken over the first axis and the axes after those of
    ``gamma`` (``(0, 2, 3)`` for a 4-dimensional ``x`` and a 1-dimensional ``gamma``).
    """
    type_check.expect_ndim(fname, 'x', x, min_ndim=1)
    if axis is None:
        axes = (0,) + tuple(range(gamma.ndim + 1, x.ndim))
    else:
        if isinstance(axis, (int, numbers.Integral)) and not isinstance(axis, bool):
            axis = (axis,)
        elif not isinstance(axis, (tuple, list)):
            raise TypeError(f'{fname}: axis must be None, an int or a tuple of ints, '
                            f'but got {type(axis).__name__}')
        axes = tuple(type_check.normalize_axis(fname, a, x.ndim) for a in axis)
        if any(a >= b for a, b in zip(axes, axes[1:])):
            raise ValueError(f'{fname}: the axes in axis must be in ascending order without '
                             f'repeats, but got {tuple(axis)}')
    key_axes = tuple(i for i in range(x.ndim) if i not in axes)
    return axes, key_axes


def _parameters(fname, x, names, params, axis):
    """Checks the parameters against ``x`` and returns the axes and the broadcast shape."""
    gamma = float_input(fname, names[0], params[0])
    axes, key_axes = _axes(fname, x, gamma, axis)
    shape = tuple(x.shape[i] for i in key_axes)
    check_parameters(fname, x, names, params, shape,
                     f'the axes {key_axes} of x, which axis {axes} leaves')
    param_shape = tuple(x.shape[i] if i in key_axes else 1 for i in range(x.ndim))
    return axes, shape, param_shape


def _check_running(fname, x, gamma_shape, running_mean, running_var):
    if (running_mean is None) != (running_var is None):
        raise ValueError(f'{fname}: running_mean and running_var must be given together, but '
                         f'only {"running_mean" if running_var is None else "running_var"} '
                         'was given')
    if running_mean is None:
        return
    device = backend.get_device_from_array(x)
    for name, array in (('running_mean', running_mean), ('running_var', running_var)):
        if not backend.is_array(array):
            raise TypeError(f'{fname}: {name} must be an array (it is updated in place), '
                            f'but got {type(array).__name__}')
        type_check.expect_dtype_kind(fname, name, array, 'f')
        if array.shape != gamma_shape:
            raise ValueError(f'{fname}: {name} must have the shape of gamma {gamma_shape}, '
                             f'but got shape {array.shape}')
        if backend.get_device_from_array(array) != device:
            raise ValueError(f'{fname}: {name} must be on the device of x ({device}), but it '
                             f'is on {backend.get_device_from_array(array)}')


def batch_normalization(x, gamma, beta, *, eps: float = 2e-5, running_mean=None,
                        running_var=None, decay: float = 0.9, axis=None) -> Variable:
    """Batch normalization with the statistics of the batch (the training mode).

    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``, where ``mean`` and ``var`` (the biased
    variance) are taken over ``axis`` and ``gamma``, ``beta`` span the other axes, in order.
    Float16 inputs are computed in float32. The gradients of all three inputs are computed,
    and they can be differentiated again (double backprop).

    Args:
        x (Variable or array): the input, a float array; by default of shape ``(N, C, ...)``.
        gamma (Variable or array): the scale, of ``x``'s dtype and of the shape of the axes
            that ``axis`` leaves (``(C,)`` by default).
        beta (Variable or array): the shift, of ``gamma``'s shape and dtype.
        eps (float): added to the variance.
        running_mean (array or None): the running average of the mean, of ``gamma``'s shape;
            updated in place to ``decay * running_mean + (1 - decay) * mean``.
        running_var (array or None): the running average of the variance, updated in place
            with the unbiased variance ``var * m / (m - 1)`` of the ``m`` values per channel.
            Give both running arrays or neither.
        decay (float): the decay of the running averages.
        axis (None, int or tuple of int): the axes to normalize over, in ascending order. None
            means the first axis and the axes after ``gamma``'s: ``(0, 2, 3)`` for a
            4-dimensional ``x`` and a 1-dimensional ``gamma``.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    fname = 'batch_normalization'
    x_array = float_input(fname, 'x', x)
    axes, gamma_shape, param_shape = _parameters(fname, x_array, ('gamma', 'beta'),
                                                 (gamma, beta), axis)
    eps = check_eps(fname, eps)
    _check_running(fname, x_array, gamma_shape, running_mean, running_var)
    if all(x_array.shape[i] == 1 for i in axes):
        warnings.warn(f'{fname}: x of shape {x_array.shape} has one value per channel along the '
                      f'normalized axes {axes}; the output is beta whatever x is. In inference, '
                      'use fixed_batch_normalization (config.train False for the link).',
                      UserWarning, stacklevel=2)
    y, node = apply_normalization(x, gamma, beta, axes, param_shape, eps)
    if running_mean is not None:
        stats = node.stats
        m = stats.count
        adjust = m / max(m - 1., 1.)  # the unbiased estimate of the variance
        decay = float(decay)
        running_mean *= decay
        running_mean += ((1 - decay) * stats.mean).reshape(gamma_shape)
        running_var *= decay
        running_var += ((1 - decay) * adjust * stats.var).reshape(gamma_shape)
    return y


def fixed_normalization_affine(gamma, beta, mean, var, eps: float, dtype):
    """The ``scale`` and ``shift`` with which fixed batch normalization is the affine map
    ``x * scale + shift``: ``scale = gamma / sqrt(var + eps)``, ``shift = beta - mean *
    scale``, arrays of the parameters' shape and of ``dtype``."""
    xp = backend.get_array_module(gamma)
    scale = gamma.astype(dtype) / xp.sqrt(var.astype(dtype) + eps)
    shift = beta.astype(dtype) - mean.astype(dtype, copy=False) * scale
    return scale, shift


class FixedBatchNormalization(FunctionNode):
    """``(x, gamma, beta, mean, var) -> gamma * (x - mean) / sqrt(var + eps) + beta``, the
    parameters (of their own shape) broadcast against ``x`` as ``param_shape``. Reshaping them
    here rather than by four reshape nodes halves the cost of the call in inference."""

    def __init__(self, eps: float, param_shape: tuple[int, ...]):
        self.eps = eps
        self.param_shape = param_shape

    def forward(self, inputs):
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        cdtype = compute_dtype(x.dtype)
        if is_cupy(backend.get_array_module(x)):
            return cuda_batch_normalization.fixed_batch_normalization(
                x, gamma, beta, mean, var, self.eps, self.param_shape, cdtype),
        # y = x * scale + shift: two passes over x, the per-channel terms folded first.
        scale, shift = fixed_normalization_affine(gamma, beta, mean, var, self.eps, cdtype)
        y = x * scale.reshape(self.param_shape)
        y += shift.reshape(self.param_shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        shape, param_shape = gamma.shape, self.param_shape
        gamma, mean, var = (reshape(p, param_shape) for p in (gamma, mean, var))
        inv_std = rsqrt(var + self.eps)
        gamma_inv_std = gamma * inv_std
        ggamma = (sum_to(gy * ((x - mean) * inv_std), param_shape) if {1, 4} & set(indexes)
                  else None)
        gbeta = sum_to(gy, param_shape) if {2, 3} & set(indexes) else None
        grads = {
            0: lambda: gy * gamma_inv_std,
            1: lambda: reshape(ggamma, shape),
            2: lambda: reshape(gbeta, shape),
            3: lambda: reshape(-gamma_inv_std * gbeta, shape),
            4: lambda: reshape(ggamma * (-0.5 * gamma * inv_std * inv_std), shape),
        }
        return tuple(grads[i]() for i in indexes)


def fixed_batch_normalization(x, gamma, beta, mean, var, eps: float = 2e-5,
                              axis=None) -> Variable:
    """Batch normalization with given statistics (the inference mode).

    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``, the parameters spanning the axes of
    ``x`` that ``axis`` leaves. Float16 inputs are computed in float32. All five inputs get
    gradients, which can be differentiated again (double backprop).

    Args:
        x (Variable or array): the input, a float array; by default of shape ``(N, C, ...)``.
        gamma, beta (Variable or array): the scale and the shift, of ``x``'s dtype and of the
            shape of the axes that ``axis`` leaves (``(C,)`` by default).
        mean, var (Variable or array): the mean and the variance to normalize with, of
            ``gamma``'s shape and dtype.
        eps (float): added to the variance.
        axis (None, int or tuple of int): as in :func:`batch_normalization`.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    fname = 'fixed_batch_normalization'
    x_array = float_input(fname, 'x', x)
    names = ('gamma', 'beta', 'mean', 'var')
    params = (gamma, beta, mean, var)
    _, _, param_shape = _parameters(fname, x_array, names, params, axis)
    eps = check_eps(fname, eps)
    return FixedBatchNormalization(eps, param_shape).apply((x,) + params)[0]
