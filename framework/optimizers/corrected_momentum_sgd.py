"""Momentum SGD with momentum correction."""

from __future__ import annotations

from framework import optimizer

_default_hyperparam = optimizer.Hyperparameter(lr=0.01, momentum=0.9)


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """Update rule of :class:`CorrectedMomentumSGD`, with state ``'v'``:
    ``v = momentum * v - grad; param += lr * v``.

    Args:
        parent_hyperparam (Hyperparameter): where unset hyperparameters are read from.
        lr (float): learning rate.
        momentum (float): decay rate of the velocity.
    """

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        self._set_hyperparams(lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = param.xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        v = self.state['v']
        v *= self.hyperparam.momentum
        v -= grad
        param.array += self.hyperparam.lr * v


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD with momentum correction: equation (9) of `Accurate, Large Minibatch SGD
    <https://arxiv.org/abs/1706.02677>`_, the learning rate outside the velocity, so that a
    change of learning rate takes effect at once, without a transient.

    Args:
        lr (float): learning rate.
        momentum (float): decay rate of the velocity.
    """

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self) -> CorrectedMomentumSGDRule:
        return CorrectedMomentumSGDRule(self.hyperparam)
