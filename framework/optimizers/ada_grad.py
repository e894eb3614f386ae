"""AdaGrad."""

from __future__ import annotations

from framework import optimizer

_default_hyperparam = optimizer.Hyperparameter(lr=0.001, eps=1e-8)


class AdaGradRule(optimizer.UpdateRule):
    """Update rule of :class:`AdaGrad`, with state ``'h'`` (the sum of squared gradients):
    ``h += grad ** 2; param -= lr * grad / (sqrt(h) + eps)``.

    Args:
        parent_hyperparam (Hyperparameter): where unset hyperparameters are read from.
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        self._set_hyperparams(lr=lr, eps=eps)

    def init_state(self, param):
        self.state['h'] = param.xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        h = self.state['h']
        h += grad * grad
        param.array -= self.hyperparam.lr * grad / (param.xp.sqrt(h) + self.hyperparam.eps)


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad (`Duchi et al., 2011 <http://jmlr.org/papers/v12/duchi11a.html>`_).

    Args:
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    def __init__(self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self) -> AdaGradRule:
        return AdaGradRule(self.hyperparam)
