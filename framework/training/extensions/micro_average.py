"""MicroAverage: the ratio of two sums of observed values over an interval."""

from __future__ import annotations

from framework import backend, reporter
from framework.training import extension
from framework.training.trigger import get_trigger
from framework.variable import Variable


class MicroAverage(extension.Extension):
    """Reports ``sum(numerator) / sum(denominator)`` of two observed values over each interval.

    The mean of per-batch ratios (what LogReport gives) weighs small batches as much as large
    ones; this micro average weighs every sample alike. For example, a model that reports the
    number of correct predictions (``'main/correct'``) and of samples (``'main/total'``) gets
    its accuracy over the interval with
    ``MicroAverage('main/correct', 'main/total', 'main/accuracy')``.

    Args:
        numerator_key (str): the observed key summed into the numerator.
        denominator_key (str): the observed key summed into the denominator.
        result_key (str): the key under which the ratio is reported.
        trigger: when to report and restart the sums (``(1, 'epoch')``).
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key: str, denominator_key: str, result_key: str,
                 trigger=(1, 'epoch')):
        self._trigger = get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer) -> None:
        observation = trainer.observation
        if not (self._numerator_key in observation and self._denominator_key in observation):
            return
        self._numerator += _host(observation[self._numerator_key])
        self._denominator += _host(observation[self._denominator_key])
        if self._trigger(trainer):
            result = float(self._numerator) / float(self._denominator)
            self._numerator = 0
            self._denominator = 0
            reporter.report({self._result_key: result})

    def serialize(self, serializer) -> None:
        """Saves or loads the running sums (``_numerator``, ``_denominator``) and, unlike
        Chainer (whose resumed average fires early), the trigger (``_trigger/``)."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._numerator = reporter.serialize_scalar(serializer, '_numerator', self._numerator)
        self._denominator = reporter.serialize_scalar(serializer, '_denominator',
                                                      self._denominator)


def _host(value):
    """A number: the array of a Variable, copied to the host, as a NumPy or Python scalar."""
    if isinstance(value, Variable):
        value = value.array
    if backend.is_array(value):
        value = backend.to_cpu(value)[()]
    return value
