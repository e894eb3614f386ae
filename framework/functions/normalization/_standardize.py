"""Standardization over some axes with statistics computed once, differentiable to any order.

The normalizations compute the mean and the inverse standard deviation of their input in the
forward pass (:class:`Statistics`). Their double backward needs ``x_hat = (x - mean) * inv_std``
and the gradient of standardization as differentiable functions of ``x``; the three nodes here
provide them, reusing the statistics rather than computing them again, yet differentiating them
as the functions of ``x`` that they are:

- :class:`Standardize`: ``x -> x_hat``;
- :class:`StandardizeGrad`: ``(x, g) -> P_x(g)``, the gradient of ``<g, x_hat>`` with respect to
  ``x``: ``inv_std * (g - mean(g) - x_hat * mean(g * x_hat))``, means over the axes;
- :class:`MulInvStd`: ``(x, y) -> inv_std * y``.

The backward of each is written with these three and other differentiable functions, so the
set is closed under differentiation. ``P_x`` is self-adjoint, which gives the gradient of
:class:`StandardizeGrad` with respect to ``g``.
"""

from __future__ import annotations

import math

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._dtypes import compute_dtype
from framework.functions.math.average import average
from framework.variable import Variable


class Statistics:
    """The mean and inverse standard deviation of an array over some axes (kept as size 1).

    Args:
        x: the array.
        axes: the sorted axes the statistics are taken over.
        eps: added to the variance before the square root.

    Attributes:
        axes, mean, var, inv_std, count: the axes, the mean and the biased variance and
        ``1 / sqrt(var + eps)`` (in :func:`compute_dtype` of ``x``, with the axes kept), and
        the number of elements each statistic is taken over.
        centered: ``x - mean`` in the compute dtype; free for the forward pass to reuse, then
        dropped with :meth:`release_centered`.
    """

    def __init__(self, x, axes: tuple[int, ...], eps: float):
        xp = backend.get_array_module(x)
        self.axes = axes
        self.count = math.prod(x.shape[i] for i in axes)
        xc = x.astype(compute_dtype(x.dtype), copy=False)
        self.mean = xc.mean(axis=axes, keepdims=True)
        self.centered = xc - self.mean
        self.var = sum_of_products(self.centered, self.centered, axes) / max(self.count, 1)
        self.inv_std = 1 / xp.sqrt(self.var + eps)

    def release_centered(self):
        """Returns :attr:`centered` and forgets it (the caller may overwrite it)."""
        centered, self.centered = self.centered, None
        return centered

    def x_hat(self, x):
        """``(x - mean) * inv_std`` as an array of the compute dtype."""
        x_hat = x.astype(self.mean.dtype, copy=False) - self.mean
        x_hat *= self.inv_std
        return x_hat

    def p(self, g, x_hat):
        """``P_x(g)``, with ``x_hat`` given, as an array of the compute dtype."""
        g = g.astype(self.mean.dtype, copy=False)
        mean_g = g.mean(axis=self.axes, keepdims=True)
        mean_gx = (g * x_hat).mean(axis=self.axes, keepdims=True)
        ret = g - mean_g
        ret -= x_hat * mean_gx
        ret *= self.inv_std
        return ret


def sum_of_products(a, b, axes: tuple[int, ...]):
    """``(a * b).sum(axis=axes, keepdims=True)`` without the product array: for arrays
    ``(N, C, *spatial)`` summed over every axis but the second (batch normalization's case),
    one dot product per image and channel, or per channel when both are laid out channel by
    channel (as convolutions over several images return them); otherwise through the
    product."""
    xp = backend.get_array_module(a)
    n, c = a.shape[:2]
    if a.ndim > 2 and axes == (0,) + tuple(range(2, a.ndim)) and a.dtype == b.dtype:
        keep = (1, c) + (1,) * (a.ndim - 2)
        if a.flags.c_contiguous and b.flags.c_contiguous:
            dots = xp.matmul(a.reshape(n, c, 1, -1), b.reshape(n, c, -1, 1))
            return dots.sum(axis=0).reshape(keep)
        a_major, b_major = a.swapaxes(0, 1), b.swapaxes(0, 1)
        if a_major.flags.c_contiguous and b_major.flags.c_contiguous:
            return xp.matmul(a_major.reshape(c, 1, -1), b_major.reshape(c, -1, 1)).reshape(keep)
    return (a * b).sum(axis=axes, keepdims=True)


def mean_over(x: Variable, axes: tuple[int, ...]) -> Variable:
    """The differentiable mean of ``x`` over ``axes``, with the axes kept."""
    return average(x, axis=axes, keepdims=True)


class Standardize(FunctionNode):
    """``x -> (x - mean) * inv_std`` with the statistics of :class:`Statistics`."""

    def __init__(self, stats: Statistics):
        self.stats = stats

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return self.stats.x_hat(x).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return StandardizeGrad(self.stats).apply((x, grad_outputs[0]))


class StandardizeGrad(FunctionNode):
    """``(x, g) -> P_x(g)``, the gradient of standardization (see the module docstring)."""

    def __init__(self, stats: Statistics):
        self.stats = stats

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        x, g = inputs
        return self.stats.p(g, self.stats.x_hat(x)).astype(g.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, g = self.get_retained_inputs()
        out, = self.get_retained_outputs()
        a, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(standardize_grad_x(self.stats, x, g, a, out, None))
        if 1 in indexes:
            ret.append(StandardizeGrad(self.stats).apply((x, a))[0])
        return tuple(ret)


class MulInvStd(FunctionNode):
    """``(x, y) -> inv_std * y``, where ``inv_std`` is a function of ``x``."""

    def __init__(self, stats: Statistics):
        self.stats = stats

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        _, y = inputs
        z = y.astype(self.stats.inv_std.dtype, copy=False) * self.stats.inv_std
        return z.astype(y.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz, = grad_outputs
        ret = []
        if 0 in indexes:
            # d inv_std / dx = -inv_std^2 * x_hat / count
            x_hat = Standardize(self.stats).apply((x,))[0]
            ret.append(-mul_inv_std(self.stats, x, x_hat * mean_over(gz * z, self.stats.axes)))
        if 1 in indexes:
            ret.append(mul_inv_std(self.stats, x, gz))
        return tuple(ret)


def mul_inv_std(stats: Statistics, x: Variable, y: Variable) -> Variable:
    return MulInvStd(stats).apply((x, y))[0]


def standardize_grad_x(stats: Statistics, x: Variable, g: Variable, a: Variable | None,
                       out: Variable, h: Variable | None) -> Variable | None:
    """The gradient with respect to ``x`` of ``<a, P_x(g)> + <h, x_hat>``.

    Args:
        stats: the statistics of ``x``.
        x: the standardized input.
        g, out: ``g`` and ``out = P_x(g)``.
        a: the gradient of ``out``, or None for none.
        h: the gradient of ``x_hat``, or None for none.

    Returns:
        Variable of the shape of ``x``, or None when both ``a`` and ``h`` are None.
    """
    if a is None:
        return None if h is None else StandardizeGrad(stats).apply((x, h))[0]
    axes = stats.axes
    x_hat = Standardize(stats).apply((x,))[0]
    # <a, P_x(g)> = inv_std * (<a, g> - <a, 1><g, 1> / n - <a, x_hat><g, x_hat> / n) per group:
    # its gradient through x_hat (inv_std fixed) is gx_hat, and through inv_std it is
    # <a, out> / inv_std, which the chain rule of standardization turns into the last term.
    gx_hat = mul_inv_std(stats, x, -(a * mean_over(g * x_hat, axes)
                                     + g * mean_over(a * x_hat, axes)))
    if h is not None:
        gx_hat = gx_hat + h
    return (StandardizeGrad(stats).apply((x, gx_hat))[0]
            - mul_inv_std(stats, x, x_hat * mean_over(a * out, axes)))
