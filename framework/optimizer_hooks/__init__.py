"""Optimizer hooks (``from framework import optimizer_hooks``), with Chainer's names.

Add one with ``optimizer.add_hook(hook)`` (all parameters) or ``param.update_rule.add_hook(hook)``
(one parameter). Hooks see gradients already divided by the loss scale.
"""

from framework.optimizer_hooks.gradient_clipping import GradientClipping
from framework.optimizer_hooks.gradient_hard_clipping import GradientHardClipping
from framework.optimizer_hooks.gradient_lars import GradientLARS
from framework.optimizer_hooks.gradient_noise import GradientNoise, exponential_decay_noise
from framework.optimizer_hooks.lasso import Lasso
from framework.optimizer_hooks.weight_decay import WeightDecay

__all__ = [
    'GradientClipping', 'GradientHardClipping', 'GradientLARS', 'GradientNoise', 'Lasso',
    'WeightDecay', 'exponential_decay_noise',
]
