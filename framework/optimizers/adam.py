"""Adam and its variants: AdamW, AMSGrad, AdaBound, AMSBound."""

from __future__ import annotations

import math

import numpy

from framework import optimizer

_default_hyperparam = optimizer.Hyperparameter(
    alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0,
    amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3)


def _learning_rate(hp, t: int) -> float:
    if t == 0:
        raise RuntimeError("Adam: the learning rate alpha_t is not defined before the first "
                           'update (t == 0)')
    fix1 = 1. - math.pow(hp.beta1, t)
    fix2 = 1. - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


def _axpby(x, a: float, b: float, y) -> None:
    """``x = a * x + b * y`` in place."""
    if a == 1:
        x += b * y
    else:
        x[...] = a * x + b * y


class AdamRule(optimizer.UpdateRule):
    """Update rule of :class:`Adam`, with state ``'m'`` and ``'v'`` (the first and second
    moment estimates) and, for AMSGrad, ``'vhat'`` (the running maximum of ``v``)::

        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad ** 2 - v)
        step = alpha_t / (sqrt(v) + eps)          # sqrt(vhat) with amsgrad
        step = clip(step, lower, upper)           # with adabound
        param -= eta * (step * m + weight_decay_rate * param)

    where ``alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)``. float16 parameters
    are computed in float32 (the state stays float16).

    Args:
        parent_hyperparam (Hyperparameter): where unset hyperparameters are read from.
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad, adabound, final_lr, gamma:
            see :class:`Adam`.
    """

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None, beta2=None, eps=None,
                 eta=None, weight_decay_rate=None, amsgrad=None, adabound=None, final_lr=None,
                 gamma=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        self._set_hyperparams(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                              weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                              adabound=adabound, final_lr=final_lr, gamma=gamma)
        self.initial_alpha = self.hyperparam.alpha

    def init_state(self, param):
        xp = param.xp
        self.state['m'] = xp.zeros_like(param.array)
        self.state['v'] = xp.zeros_like(param.array)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = xp.zeros_like(param.array)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        dtype = numpy.dtype(numpy.float32 if param.dtype == numpy.float16 else param.dtype)
        if hp.eps != 0 and dtype.type(hp.eps) == 0:
            raise ValueError(f'Adam: eps={hp.eps} is 0 in {dtype.name}; use a larger eps')
        xp = param.xp
        grad = grad.astype(dtype, copy=False)
        m, v = self.state['m'], self.state['v']
        m += (1.0 - hp.beta1) * (grad - m)
        v += (1.0 - hp.beta2) * (grad * grad - v)
        vhat = v
        if hp.amsgrad:
            vhat = self.state['vhat']
            xp.maximum(vhat, v, out=vhat)
        step = self.alpha_t / (xp.sqrt(vhat.astype(dtype, copy=False)) + hp.eps)
        if hp.adabound:
            lower, upper = self.bounds
            step = xp.clip(step, lower, upper)
        _axpby(param.array, 1.0 - hp.eta * hp.weight_decay_rate, -hp.eta, step * m)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size of the current update."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Alias of :attr:`alpha_t`."""
        return self.alpha_t

    @property
    def bounds(self) -> tuple[float, float]:
        """AdaBound's ``(lower, upper)`` bounds of the step size at the current update.

        ``final_lr`` is scaled by ``alpha / initial_alpha`` so that schedules that change
        ``alpha`` move the bounds too.
        """
        if self.t == 0:
            raise RuntimeError('AdaBound: the bounds are not defined before the first update '
                               '(t == 0)')
        hp = self.hyperparam
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(optimizer.GradientMethod):
    """Adam (`Kingma and Ba <https://arxiv.org/abs/1412.6980v8>`_), with the decoupled weight
    decay of AdamW (`Loshchilov and Hutter <https://openreview.net/forum?id=rk6qdGgCZ>`_), the
    AMSGrad variant (`Reddi et al. <https://openreview.net/forum?id=ryQu7f-RZ>`_) and the
    AdaBound variant (`Luo et al. <https://openreview.net/forum?id=Bkg3g2R9FX>`_); see
    :class:`AdamRule` for the update. With the defaults it is the original Adam.

    Args:
        alpha (float): coefficient of the learning rate.
        beta1 (float): decay rate of the first moment estimate.
        beta2 (float): decay rate of the second moment estimate.
        eps (float): small value for numerical stability.
        eta (float): schedule multiplier of the whole update (for warm restarts).
        weight_decay_rate (float): decoupled weight decay rate.
        amsgrad (bool): use AMSGrad (the running maximum of the second moment).
        adabound (bool): use AdaBound (the step size clipped to bounds that converge to
            ``final_lr``).
        final_lr (float): AdaBound's final (SGD) learning rate.
        gamma (float): AdaBound's convergence speed of the bounds.
    """

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2, eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
                 amsgrad: bool = _default_hyperparam.amsgrad,
                 adabound: bool = _default_hyperparam.adabound,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma):
        super().__init__()
        self.hyperparam.alpha = alpha
        self.hyperparam.beta1 = beta1
        self.hyperparam.beta2 = beta2
        self.hyperparam.eps = eps
        self.hyperparam.eta = eta
        self.hyperparam.weight_decay_rate = weight_decay_rate
        self.hyperparam.amsgrad = amsgrad
        self.hyperparam.adabound = adabound
        self.hyperparam.final_lr = final_lr
        self.hyperparam.gamma = gamma

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    def create_update_rule(self) -> AdamRule:
        return AdamRule(self.hyperparam)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size at the optimizer's step count ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Alias of :attr:`alpha_t` (read-only: schedules change ``alpha``)."""
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay: :class:`Adam` with ``weight_decay_rate``.

    Args:
        alpha, beta1, beta2, eps, eta, weight_decay_rate: see :class:`Adam`.
    """

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2, eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """:class:`Adam` with ``amsgrad=True``.

    Args:
        alpha, beta1, beta2, eps, eta: see :class:`Adam`.
    """

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2, eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta, amsgrad=True)


class AdaBound(Adam):
    """:class:`Adam` with ``adabound=True``.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: see :class:`Adam` (in Chainer's
            order).
    """

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma, eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """:class:`Adam` with ``amsgrad=True`` and ``adabound=True``.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: see :class:`Adam` (in Chainer's
            order).
    """

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma, eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True, adabound=True, final_lr=final_lr, gamma=gamma)
