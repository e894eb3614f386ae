"""Element-wise gradient clipping."""

from __future__ import annotations


class GradientHardClipping:
    """Clips every gradient element to ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float or None): the lower bound (None: no lower bound).
        upper_bound (float or None): the upper bound (None: no upper bound).

    Attributes:
        lower_bound, upper_bound (float): the bounds.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound: float | None, upper_bound: float | None):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param) -> None:
        grad = param.grad
        if grad is None:
            return
        param.xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
