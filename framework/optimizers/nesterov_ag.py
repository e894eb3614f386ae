"""Nesterov's accelerated gradient."""

from __future__ import annotations

from framework import optimizer

_default_hyperparam = optimizer.Hyperparameter(lr=0.01, momentum=0.9)


class NesterovAGRule(optimizer.UpdateRule):
    """Update rule of :class:`NesterovAG`, with state ``'v'``:
    ``v = momentum * v - lr * grad;
    param += momentum ** 2 * v - (1 + momentum) * lr * grad``.

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
        lr, momentum = self.hyperparam.lr, self.hyperparam.momentum
        v = self.state['v']
        v *= momentum
        v -= lr * grad
        param.array += momentum * momentum * v
        param.array -= (1 + momentum) * lr * grad


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient, in the form of `Bengio et al., 2012
    <https://arxiv.org/abs/1212.0901>`_.

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

    def create_update_rule(self) -> NesterovAGRule:
        return NesterovAGRule(self.hyperparam)
