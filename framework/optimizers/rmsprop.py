"""RMSprop."""

from __future__ import annotations

from framework import optimizer

_default_hyperparam = optimizer.Hyperparameter(lr=0.01, alpha=0.99, eps=1e-8,
                                               eps_inside_sqrt=False)


class RMSpropRule(optimizer.UpdateRule):
    """Update rule of :class:`RMSprop`, with state ``'ms'`` (the mean square of the gradient):
    ``ms = alpha * ms + (1 - alpha) * grad ** 2; param -= lr * grad / (sqrt(ms) + eps)``.

    Args:
        parent_hyperparam (Hyperparameter): where unset hyperparameters are read from.
        lr (float): learning rate.
        alpha (float): decay rate of the mean square.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): divide by ``sqrt(ms + eps)`` instead.
    """

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        self._set_hyperparams(lr=lr, alpha=alpha, eps=eps, eps_inside_sqrt=eps_inside_sqrt)

    def init_state(self, param):
        self.state['ms'] = param.xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        eps = grad.dtype.type(hp.eps)
        if hp.eps != 0 and eps == 0:
            raise ValueError(f'RMSprop: eps={hp.eps} is 0 in {grad.dtype.name}; use a larger '
                             'eps, or use_fp32_update() for float16 parameters')
        xp = param.xp
        ms = self.state['ms']
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        denom = xp.sqrt(ms + eps) if hp.eps_inside_sqrt else xp.sqrt(ms) + eps
        param.array -= hp.lr * grad / denom


class RMSprop(optimizer.GradientMethod):
    """RMSprop (Tieleman and Hinton, 2012, Lecture 6.5 of Neural Networks for Machine
    Learning).

    Args:
        lr (float): learning rate.
        alpha (float): decay rate of the mean square of the gradient.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): divide the gradient by ``sqrt(ms + eps)`` rather than
            ``sqrt(ms) + eps`` (as some other frameworks do).
    """

    def __init__(self, lr: float = _default_hyperparam.lr,
                 alpha: float = _default_hyperparam.alpha, eps: float = _default_hyperparam.eps,
                 eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.eps = eps
        self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def create_update_rule(self) -> RMSpropRule:
        return RMSpropRule(self.hyperparam)
