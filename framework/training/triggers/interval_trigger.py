"""IntervalTrigger, which fires once every ``period`` iterations or epochs, and get_trigger,
which makes one of a ``(period, unit)`` pair."""

from __future__ import annotations

from collections.abc import Callable

from framework.training.triggers._position import PreviousPosition, check_unit


class IntervalTrigger:
    """A trigger that fires each time the training crosses a multiple of ``period``.

    With ``unit='epoch'`` the position is the updater's ``epoch_detail``, so a period of
    ``0.5`` epoch fires at each half epoch; the trigger fires at the first call at or past each
    multiple (once, even if it is called rarely).

    Args:
        period (int or float): the length of the interval.
        unit (str): ``'iteration'`` or ``'epoch'``.
    """

    def __init__(self, period, unit: str):
        self.period = period
        self.unit = check_unit('IntervalTrigger', unit)
        self._previous = PreviousPosition()
        # The number of periods elapsed, kept (as Chainer does) for backward compatibility.
        self.count = 0

    def __call__(self, trainer) -> bool:
        """Whether a multiple of the period was crossed since the previous call."""
        updater = trainer.updater
        previous, current = self._previous.span(updater, self.unit)
        if self.unit == 'epoch':
            self.count = current // self.period
        fire = previous // self.period != current // self.period
        self._previous.record(updater)
        return fire

    def serialize(self, serializer) -> None:
        """Saves or loads the previous position (``previous_iteration``,
        ``previous_epoch_detail``)."""
        self._previous.serialize(serializer, 'IntervalTrigger')

    def get_training_length(self) -> tuple:
        """``(period, unit)``: the length of the training when this is the stop trigger."""
        return self.period, self.unit

    def __str__(self):
        return f"{type(self).__name__}({self.period}, '{self.unit}')"


def get_trigger(trigger) -> Callable:
    """Returns a trigger: ``trigger`` itself when callable, :class:`IntervalTrigger` made from
    a ``(period, unit)`` pair, or a trigger that never fires for None.

    Args:
        trigger: a callable ``trigger(trainer) -> bool``, a tuple such as ``(1, 'epoch')`` or
            ``(100, 'iteration')``, or None.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    try:
        period, unit = trigger
    except (TypeError, ValueError):
        raise TypeError('get_trigger: trigger must be callable, a (period, unit) pair or None, '
                        f'but got {trigger!r}') from None
    return IntervalTrigger(period, unit)


def _never_fire_trigger(trainer) -> bool:
    return False
