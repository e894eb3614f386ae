"""GradientScaling: an optimizer hook that multiplies the gradients by a constant."""

from __future__ import annotations


class GradientScaling:
    """Multiplies each gradient by ``rate`` before the update (ChainerCV's
    ``GradientScaling``; SSD's recipe doubles the learning rate of the biases with it:
    ``param.update_rule.add_hook(GradientScaling(2))``).

    Args:
        rate (float): the factor.

    Attributes:
        rate (float): the factor.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientScaling'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float):
        self.rate = rate

    def __call__(self, rule, param) -> None:
        grad = param.grad
        if grad is not None:
            grad *= self.rate
