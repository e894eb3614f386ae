"""Gradient clipping by the global L2 norm."""

from __future__ import annotations

import numpy

from framework import backend


def _sum_squares(grads: list):
    """The sum of squares of all the gradients: a 0-d array on their device when they share
    one (no synchronization with a GPU), else a Python float."""
    per_device = {}
    for g in grads:
        flat = g.ravel()
        device = backend.get_device_from_array(g)
        per_device[device] = per_device.get(device, 0) + flat.dot(flat)
    if len(per_device) == 1:
        return next(iter(per_device.values()))
    return sum(float(s) for s in per_device.values())


class GradientClipping:
    """Rescales all gradients together so that their global L2 norm is at most ``threshold``.

    When the norm ``n`` of all gradients (concatenated) exceeds the threshold, every gradient
    is multiplied by ``threshold / n``; otherwise nothing changes.

    Args:
        threshold (float): the largest L2 norm allowed.

    Attributes:
        threshold (float): the largest L2 norm allowed.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold: float):
        self.threshold = threshold

    def __call__(self, opt) -> None:
        grads = [p.grad for p in opt.target.params(include_uninit=False) if p.grad is not None]
        if not grads:
            return
        sqnorm = _sum_squares(grads)
        xp = backend.get_array_module(sqnorm)
        norm = xp.sqrt(sqnorm)
        if xp is numpy:
            if norm <= self.threshold:
                return
            rate = self.threshold / norm
        else:
            rate = xp.minimum(self.threshold / norm, 1)
        for g in grads:
            g *= rate
