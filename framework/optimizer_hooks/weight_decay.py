"""L2 regularization as a hook."""

from __future__ import annotations


class WeightDecay:
    """Adds ``rate * param`` to each gradient (L2 regularization).

    Args:
        rate (float): coefficient of the weight decay.

    Attributes:
        rate (float): coefficient of the weight decay.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float):
        self.rate = rate

    def __call__(self, rule, param) -> None:
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        g += self.rate * p
