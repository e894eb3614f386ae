"""Classical momentum SGD."""

from __future__ import annotations

from framework import optimizer
from framework.cuda import is_cupy, update_rules

_default_hyperparam = optimizer.Hyperparameter(lr=0.01, momentum=0.9)


class MomentumSGDRule(optimizer.UpdateRule):
    """Update rule of :class:`MomentumSGD`, with state ``'v'`` (the velocity):
    ``v = momentum * v - lr * grad; param += v``.

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
        if is_cupy(param.xp):
            update_rules.momentum_sgd(param.array, grad, v, self.hyperparam.lr,
                                      self.hyperparam.momentum)
            return
        v *= self.hyperparam.momentum
        v -= self.hyperparam.lr * grad
        param.array += v


class MomentumSGD(optimizer.GradientMethod):
    """Momentum SGD (equation (10) of Goyal et al., 2017, the learning rate inside the
    velocity).

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

    def create_update_rule(self) -> MomentumSGDRule:
        return MomentumSGDRule(self.hyperparam)
