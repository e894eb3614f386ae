"""Triggers that fire when an observed value reaches a new best."""

from __future__ import annotations

import operator
from collections.abc import Callable

from framework import backend, reporter
from framework.training.triggers.interval_trigger import get_trigger


class BestValueTrigger:
    """A trigger that fires when the mean of an observed value over an interval is a new best.

    The values of ``key`` are averaged between the firings of ``trigger``; at each firing the
    mean is compared with the best so far.

    Args:
        key (str): the key of the observed value (``'validation/main/loss'``).
        compare (callable): ``compare(best, new)`` is True when ``new`` is better.
        trigger: when to compare (see :func:`~framework.training.get_trigger`).
    """

    def __init__(self, key: str, compare: Callable, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._compare = compare

    def __call__(self, trainer) -> bool:
        """Accumulates the value; at the interval, whether its mean is a new best.

        Raises:
            KeyError: at the interval, no value of ``key`` was observed.
        """
        observation = trainer.observation
        key = self._key
        if key in observation:
            self._summary.add({key: observation[key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if key not in stats:
            raise KeyError(f'{type(self).__name__}: the key {key!r} was not observed (the '
                           f'observed keys are {sorted(stats)})')
        value = float(backend.to_cpu(stats[key]))
        self._summary = reporter.DictSummary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer) -> None:
        """Saves or loads the interval trigger, the running summary and the best value."""
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """A trigger that fires when the mean of an observed value is a new maximum.

    Args:
        key (str): the key of the observed value.
        trigger: when to compare (``(1, 'epoch')`` by default).
    """

    def __init__(self, key: str, trigger=(1, 'epoch')):
        super().__init__(key, operator.lt, trigger)


class MinValueTrigger(BestValueTrigger):
    """A trigger that fires when the mean of an observed value is a new minimum.

    Args:
        key (str): the key of the observed value.
        trigger: when to compare (``(1, 'epoch')`` by default).
    """

    def __init__(self, key: str, trigger=(1, 'epoch')):
        super().__init__(key, operator.gt, trigger)
