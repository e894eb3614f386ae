"""WarmupShift: raises an optimizer attribute linearly over the first iterations."""

from __future__ import annotations

from framework.training.extensions._shift import Shift


class WarmupShift(Shift):
    """Moves an optimizer attribute linearly from ``warmup_start`` to ``init`` over the first
    ``warmup_iter`` calls, and then leaves it alone (another extension may take over).

    The attribute is set to ``warmup_start`` before the training starts (when resuming from a
    snapshot in the warm-up, to the value for the saved call count; after it, not at all).

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        warmup_start (float): the value at the start; the attribute's value when None.
        warmup_iter (int): the number of calls of the warm-up.
        init (float): the value reached at the end of the warm-up.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    saves_last_value = False

    def __init__(self, attr: str, warmup_start: float | None, warmup_iter: int, init: float,
                 optimizer=None):
        super().__init__(attr, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init

    def resolve_initial(self, optimizer):
        if self._warmup_start is None:
            self._warmup_start = getattr(optimizer, self._attr)

    def initialize(self, trainer):
        if self._t <= self._warmup_iter:
            super().initialize(trainer)

    def __call__(self, trainer):
        if self._t < self._warmup_iter:
            super().__call__(trainer)
        else:
            self._t += 1

    def value_at(self, t):
        return (t * self._init + (self._warmup_iter - t) * self._warmup_start) / self._warmup_iter
