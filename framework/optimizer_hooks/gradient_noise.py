"""Annealed Gaussian gradient noise."""

from __future__ import annotations

from collections.abc import Callable

import numpy

from framework import random


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Gaussian noise of variance ``hook.eta / (1 + opt.t) ** 0.55`` (`Neelakantan et al.,
    Adding Gradient Noise Improves Learning for Very Deep Networks
    <https://arxiv.org/abs/1511.06807>`_), drawn from :func:`framework.random.get_random_state`
    so that :func:`framework.random.seed` makes it reproducible.

    Args:
        xp: the array module of the gradient.
        shape (tuple of int): the shape of the noise.
        dtype: its dtype.
        hook (GradientNoise): the hook (for ``eta``).
        opt: the update rule (or optimizer) whose ``t`` anneals the noise.

    Returns:
        array of ``xp``: the noise.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return random.get_random_state(xp).normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Adds noise to each gradient: ``grad += noise_func(xp, shape, dtype, hook, rule)``.

    Args:
        eta (float): scale of the noise; the paper uses 0.01, 0.3 or 1.0.
        noise_func (callable): makes the noise; :func:`exponential_decay_noise` by default.

    Attributes:
        eta (float): scale of the noise.
        noise_func (callable): makes the noise.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta: float, noise_func: Callable = exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param) -> None:
        g = param.grad
        if g is None:
            return
        g += self.noise_func(param.xp, g.shape, g.dtype, self, rule)
