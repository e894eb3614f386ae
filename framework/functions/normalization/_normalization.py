"""The node shared by batch, layer and group normalization, and their argument checks.

:class:`Normalization` computes ``y = gamma * (x - mean) / sqrt(var + eps) + beta`` with the
statistics taken over some axes of ``x`` and ``gamma`` and ``beta`` broadcast against ``x``
(reshaped inside the node to ``param_shape``: ``x``'s number of dimensions, with size 1 along
the axes they are shared over). The parameters enter the node as they are, not through a
reshape node: a function whose inputs are all leaves runs last in the backward pass, which would
hold their gradients back until the end of it (and the all-reduce of data-parallel training,
which starts on final gradients).
Batch normalization takes statistics over the axes where the parameters are shared; layer and
group normalization over others. Float16 inputs are computed in float32.
"""

from __future__ import annotations

import numbers

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._dtypes import compute_dtype
from framework.functions._inputs import float_input
from framework.functions.array.broadcast import broadcast_to
from framework.functions.array.reshape import reshape
from framework.functions.math.sum import sum_to
from framework.functions.normalization._standardize import (
    Standardize,
    StandardizeGrad,
    Statistics,
    standardize_grad_x,
    sum_of_products,
)
from framework.utils import type_check
from framework.variable import Variable


class Normalization(FunctionNode):
    """``(x, gamma, beta) -> gamma * x_hat + beta``, ``x_hat`` standardized over ``axes`` and
    the parameters (of any shape of ``prod(param_shape)`` elements) reshaped to
    ``param_shape``.

    After :meth:`apply`, :attr:`stats` holds the statistics of the batch.
    """

    stats: Statistics | None = None

    def __init__(self, axes: tuple[int, ...], eps: float, param_shape: tuple[int, ...]):
        self.axes = axes
        self.eps = eps
        self.param_shape = param_shape

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        cdtype = compute_dtype(x.dtype)
        self.stats = Statistics(x, self.axes, self.eps)
        y = self.stats.release_centered()
        y *= self.stats.inv_std * gamma.reshape(self.param_shape).astype(cdtype, copy=False)
        y += beta.reshape(self.param_shape).astype(cdtype, copy=False)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        grads = NormalizationGrad(self.stats, self.param_shape).apply(
            (x, gamma, grad_outputs[0]))
        return tuple(grads[i] for i in indexes)


class NormalizationGrad(FunctionNode):
    """``(x, gamma, gy) -> (gx, ggamma, gbeta)``, the gradients of :class:`Normalization`,
    ``ggamma`` and ``gbeta`` of ``gamma``'s shape."""

    def __init__(self, stats: Statistics, param_shape: tuple[int, ...]):
        self.stats = stats
        self.param_shape = param_shape

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        self.retain_outputs((0,))
        x, gamma_in, gy = inputs
        gamma = gamma_in.reshape(self.param_shape)
        stats = self.stats
        cdtype = stats.mean.dtype
        param_axes = tuple(i for i, s in enumerate(gamma.shape) if s == 1)
        gy_c = gy.astype(cdtype, copy=False)
        gamma_c = gamma.astype(cdtype, copy=False)
        gbeta = gy_c.sum(axis=param_axes, keepdims=True)
        if _same_axes(x.shape, stats.axes, param_axes):
            # Batch normalization: the sums are the means P_x needs, times count, so that
            # gx = gamma * inv_std * (gy - (x_hat * ggamma + gbeta) / count), computed from
            # x - mean in place, and ggamma without the product array.
            gx = x.astype(cdtype, copy=False) - stats.mean
            ggamma = stats.inv_std * sum_of_products(gy_c, gx, param_axes)
            count = max(stats.count, 1)
            gx *= stats.inv_std * ggamma / count
            gx += gbeta / count
            xp = backend.get_array_module(gx)
            xp.subtract(gy_c, gx, out=gx)
            gx *= gamma_c * stats.inv_std
        else:
            x_hat = stats.x_hat(x)
            ggamma = sum_of_products(gy_c, x_hat, param_axes)
            gx = stats.p(gy_c * gamma_c, x_hat)
        return (gx.astype(x.dtype, copy=False),
                ggamma.astype(gamma.dtype, copy=False).reshape(gamma_in.shape),
                gbeta.astype(gamma.dtype, copy=False).reshape(gamma_in.shape))

    def backward(self, indexes, grad_outputs):
        x, gamma_in, gy = self.get_retained_inputs()
        gx, = self.get_retained_outputs()
        ggx, gggamma, ggbeta = grad_outputs
        gggamma, ggbeta = (None if g is None else reshape(g, self.param_shape)
                           for g in (gggamma, ggbeta))
        gamma = reshape(gamma_in, self.param_shape)
        stats = self.stats
        p_ggx = None if ggx is None else StandardizeGrad(stats).apply((x, ggx))[0]
        x_hat = None if gggamma is None else Standardize(stats).apply((x,))[0]
        ret = []
        if 0 in indexes:
            h = None if gggamma is None else gggamma * gy
            ret.append(standardize_grad_x(stats, x, gy * gamma, ggx, gx, h))
        if 1 in indexes:
            ret.append(None if p_ggx is None else
                       reshape(sum_to(gy * p_ggx, gamma.shape), gamma_in.shape))
        if 2 in indexes:
            terms = [t for t in (None if p_ggx is None else gamma * p_ggx,
                                 None if gggamma is None else gggamma * x_hat) if t is not None]
            if ggbeta is not None:
                terms.append(broadcast_to(ggbeta, x.shape))
            ggy = terms[0]
            for t in terms[1:]:
                ggy = ggy + t
            ret.append(ggy)
        return tuple(ret)


def _same_axes(shape, axes, other_axes) -> bool:
    """Whether two sets of axes agree on the axes of ``shape`` longer than 1."""
    return ({i for i in axes if shape[i] != 1} == {i for i in other_axes if shape[i] != 1})


def check_eps(fname: str, eps) -> float:
    """Returns ``eps`` as a float after checking that it is a non-negative real number."""
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real):
        raise TypeError(f'{fname}: eps must be a real number, but got {type(eps).__name__}')
    if eps < 0:
        raise ValueError(f'{fname}: eps must be non-negative, but got {eps}')
    return float(eps)


def check_parameters(fname: str, x, names: tuple[str, ...], params: tuple,
                     shape: tuple[int, ...], what: str) -> None:
    """Checks that the parameters are float arrays of ``x``'s dtype and of shape ``shape``.

    Args:
        fname: the public function.
        x: the input array.
        names, params: the parameters' names and values (Variables or arrays).
        shape: the shape they must have.
        what: how ``shape`` follows from ``x``, for the message (e.g. ``'axis 1 of x'``).
    """
    for name, param in zip(names, params):
        array = float_input(fname, name, param)
        type_check.expect_same_dtype(fname, ('x', name), (x, array))
        if array.shape != shape:
            raise ValueError(f'{fname}: {name} must have shape {shape} ({what} of shape '
                             f'{x.shape}), but got shape {array.shape}')


def apply_normalization(x, gamma, beta, axes: tuple[int, ...], param_shape: tuple[int, ...],
              eps: float) -> tuple[Variable, Normalization]:
    """Applies :class:`Normalization` with the parameters reshaped to ``param_shape``.

    Returns:
        The output and the node (whose ``stats`` hold the statistics).
    """
    node = Normalization(axes, eps, param_shape)
    y, = node.apply((x, gamma, beta))
    return y, node
