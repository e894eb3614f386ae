"""PolynomialShift: decays an optimizer attribute polynomially to zero."""

from __future__ import annotations

from framework.training.extensions._shift import InitialValueShift, stop_at_target


class PolynomialShift(InitialValueShift):
    """Sets an optimizer attribute to ``init * (1 - t / max_count) ** rate`` at the ``t``-th
    call (0 from ``max_count`` on), held at ``target`` once it passes it.

    The attribute is set to its initial value before the training starts.

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        rate (float): the exponent.
        max_count (int): the number of calls over which the value decays to 0.
        init (float): the initial value; the attribute's value at the start when None.
        target (float): the value at which the shift stops; None for none.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    def __init__(self, attr: str, rate: float, max_count: int, init: float | None = None,
                 target: float | None = None, optimizer=None):
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._target = target

    def value_at(self, t):
        if t == 0:
            return self._init
        decay = max(1 - t / self._max_count, 0)
        value = self._init * decay ** self._rate
        return stop_at_target(value, self._target, self._rate <= 0)
