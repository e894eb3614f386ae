"""MultistepShift: multiplies an optimizer attribute by ``gamma`` at given calls."""

from __future__ import annotations

import bisect

from framework.training.extensions._shift import InitialValueShift


class MultistepShift(InitialValueShift):
    """Sets an optimizer attribute to ``init * gamma ** k`` where ``k`` is the number of
    entries of ``step_value`` reached by the call count.

    With ``init = x``, ``gamma = y`` and ``step_value = (s1, s2)``, the attribute is ``x``
    before the ``s1``-th call, ``x * y`` from it, ``x * y * y`` from the ``s2``-th call.
    The attribute is set before the training starts.

    Unlike Chainer's, the value is set for the saved call count before a resumed training
    starts (Chainer sets ``init`` until the first call), so that a resumed training uses the
    values the uninterrupted one would have used.

    Args:
        attr (str): the optimizer attribute (``'lr'``).
        gamma (float): the factor per step.
        step_value (sequence of int): the calls at which each step begins (increasing).
        init (float): the initial value; the attribute's value at the start when None.
        optimizer: the optimizer; the updater's ``'main'`` one when None.
    """

    saves_last_value = False

    def __init__(self, attr: str, gamma: float, step_value, init: float | None,
                 optimizer=None):
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._step_value = list(step_value)

    @property
    def _current_step(self) -> int:
        return bisect.bisect_right(self._step_value, self._t)

    def serialize(self, serializer) -> None:
        """Saves or loads the call count (``_t``); the step (``_current_step``) is saved for
        Chainer, and recomputed from ``_t`` when loaded."""
        super().serialize(serializer)
        try:
            serializer('_current_step', self._current_step)
        except KeyError:  # written by a Chainer that did not save it: it is not needed
            pass

    def value_at(self, t):
        return self._init * self._gamma ** bisect.bisect_right(self._step_value, t)
