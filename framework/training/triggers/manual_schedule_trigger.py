"""ManualScheduleTrigger: fires at given iterations or epochs."""

from __future__ import annotations

import warnings

from framework.training.triggers._position import PreviousPosition, check_unit


class ManualScheduleTrigger:
    """A trigger that fires when the training reaches one of the given points.

    Args:
        points (int, float or list of them): the iterations or epochs at which to fire.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): True once the last point was reached (the trainer then skips the
            ``initialize`` of an extension with this trigger).
    """

    def __init__(self, points, unit: str):
        self.points = points if isinstance(points, list) else [points]
        self.unit = check_unit('ManualScheduleTrigger', unit)
        self.finished = False
        self._previous = PreviousPosition()
        self._finished_is_guess = False

    def __call__(self, trainer) -> bool:
        """Whether a point lies in ``(previous position, current position]``."""
        updater = trainer.updater
        previous, current = self._previous.span(updater, self.unit)
        fire = any(previous < p <= current for p in self.points)
        last = max(self.points)
        if self._finished_is_guess:
            self._finished_is_guess = False
            if current >= last:
                self.finished = True
        if fire and current >= last:
            self.finished = True
        self._previous.record(updater)
        return fire

    def serialize(self, serializer) -> None:
        """Saves or loads the previous position and ``finished``."""
        self._previous.serialize(serializer, 'ManualScheduleTrigger')
        try:
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:
            warnings.warn('ManualScheduleTrigger: finished was not saved; it is guessed from '
                          'the position at the next call', stacklevel=2)
            self.finished = False
            self._finished_is_guess = True
