"""InverseShift: an optimizer attribute decayed as the inverse of a power of the calls."""

from __future__ import annotations

from framework.training.extensions._shift import InitialValueShift, stop_at_target


class InverseShift(InitialValueShift):
    """Sets an optimizer attribute to ``init * (1 + gamma * t) ** -power`` at the ``t``-th
    call (Caffe's ``inv`` learning-rate policy), held at ``target`` once it passes it.

    The attribute is set to its initial value before the training starts.

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        gamma (float): the factor of the call count (non-negative).
        power (float): the exponent; the value decreases when it is positive.
        init (float): the initial value; the attribute's value at the start when None.
        target (float): the value at which the shift stops; None for none.
        optimizer: the optimizer; the updater's ``'main'`` one when None.

    Raises:
        ValueError: ``gamma`` is negative.
    """

    def __init__(self, attr: str, gamma: float, power: float, init: float | None = None,
                 target: float | None = None, optimizer=None):
        if gamma < 0:
            raise ValueError(f'InverseShift: gamma must be non-negative, but got {gamma}')
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._power = power
        self._target = target

    def value_at(self, t):
        value = self._init * (1 + self._gamma * t) ** -self._power
        return value if t == 0 else stop_at_target(value, self._target, self._power < 0)
