"""StepShift: multiplies an optimizer attribute by ``gamma`` every ``step`` calls."""

from __future__ import annotations

from framework.training.extensions._shift import InitialValueShift, stop_at_target


class StepShift(InitialValueShift):
    """Sets an optimizer attribute to ``init * gamma ** floor(t / step)`` at the ``t``-th
    call, held at ``target`` once it passes it.

    The attribute is set to its initial value before the training starts.

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        gamma (float): the factor per step.
        step (int): the number of calls per step.
        init (float): the initial value; the attribute's value at the start when None.
        target (float): the value at which the shift stops; None for none.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    def __init__(self, attr: str, gamma: float, step: int, init: float | None = None,
                 target: float | None = None, optimizer=None):
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._step = step
        self._target = target

    def value_at(self, t):
        value = self._init * self._gamma ** (t // self._step)
        return value if t == 0 else stop_at_target(value, self._target, self._gamma > 1)
