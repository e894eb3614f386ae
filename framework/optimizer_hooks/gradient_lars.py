"""Layer-wise adaptive rate scaling (LARS)."""

from __future__ import annotations


class GradientLARS:
    """Scales each parameter's gradient by a local rate (`You et al., Large Batch Training of
    Convolutional Networks <https://arxiv.org/abs/1708.03888>`_)::

        grad = (grad + weight_decay * param) * rate
        rate = |param| / (eps + |grad| + weight_decay * |param|)   if |param| > threshold
               1                                                     otherwise

    with L2 norms of the whole parameter and gradient. With :class:`~framework.optimizers.SGD`
    or :class:`~framework.optimizers.MomentumSGD`, ``lr`` plays the part of the paper's global
    rate times its LARS coefficient.

    Args:
        threshold (float): parameters whose norm is at most this are not rescaled.
        weight_decay (float): coefficient of the weight decay.
        eps (float): small value for numerical stability.

    Attributes:
        threshold, weight_decay, eps (float): as above.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold: float = 1e-2, weight_decay: float = 0.0, eps: float = 1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param) -> None:
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = param.xp
        p_norm = xp.linalg.norm(p)
        g_norm = xp.linalg.norm(g)
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        rate = xp.where(p_norm > self.threshold, local_rate, 1.0)
        g += self.weight_decay * p
        g *= rate
