"""LinearShift: moves an optimizer attribute linearly between two values."""

from __future__ import annotations

from framework.training.extensions._shift import Shift


class LinearShift(Shift):
    """Sets an optimizer attribute to ``v1`` up to the ``t1``-th call, then linearly to ``v2``
    at the ``t2``-th call, and ``v2`` after (e.g. a warm-up of the momentum).

    The attribute is set (to ``v1``) before the training starts.

    Args:
        attr (str): the optimizer attribute.
        value_range (tuple of float): ``(v1, v2)``.
        time_range (tuple of int): ``(t1, t2)``, counts of calls.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    def __init__(self, attr: str, value_range: tuple, time_range: tuple, optimizer=None):
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def value_at(self, t):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (t - t1) / (t2 - t1) * (v2 - v1)
