"""L1 regularization as a hook."""

from __future__ import annotations


class Lasso:
    """Adds ``rate * sign(param)`` to each gradient (L1 regularization).

    Args:
        rate (float): coefficient of the regularization.

    Attributes:
        rate (float): coefficient of the regularization.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float):
        self.rate = rate

    def __call__(self, rule, param) -> None:
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        g += self.rate * param.xp.sign(p)
