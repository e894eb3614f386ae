"""Vanilla stochastic gradient descent."""

from __future__ import annotations

from framework import optimizer
from framework.cuda import is_cupy, update_rules

_default_hyperparam = optimizer.Hyperparameter(lr=0.01)


class SGDRule(optimizer.UpdateRule):
    """Update rule of :class:`SGD`: ``param -= lr * grad``.

    Args:
        parent_hyperparam (Hyperparameter): where unset hyperparameters are read from.
        lr (float): learning rate.
    """

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        self._set_hyperparams(lr=lr)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        if is_cupy(param.xp):
            update_rules.sgd(param.array, grad, self.hyperparam.lr)
            return
        param.array -= self.hyperparam.lr * grad


class SGD(optimizer.GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): learning rate.
    """

    def __init__(self, lr: float = _default_hyperparam.lr):
        super().__init__()
        self.hyperparam.lr = lr

    lr = optimizer.HyperparameterProxy('lr')

    def create_update_rule(self) -> SGDRule:
        return SGDRule(self.hyperparam)
