"""ExponentialShift: multiplies an optimizer attribute by a rate at each call."""

from __future__ import annotations

from framework.training.extensions._shift import InitialValueShift, stop_at_target


class ExponentialShift(InitialValueShift):
    """Sets an optimizer attribute to ``init * rate ** t`` at the ``t``-th call (e.g. an
    exponential decay of the learning rate), held at ``target`` once it passes it.

    The attribute is set to its initial value before the training starts.

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        rate (float): the factor per call (non-negative).
        init (float): the initial value; the attribute's value at the start when None.
        target (float): the value at which the shift stops; None for none.
        optimizer: the optimizer; the updater's ``'main'`` one when None.

    Raises:
        ValueError: ``rate`` is negative.
    """

    def __init__(self, attr: str, rate: float, init: float | None = None,
                 target: float | None = None, optimizer=None):
        if rate < 0:
            raise ValueError(f'ExponentialShift: rate must be non-negative, but got {rate}')
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._target = target

    def value_at(self, t):
        value = self._init * self._rate ** t
        return value if t == 0 else stop_at_target(value, self._target, self._rate > 1)
