"""EarlyStoppingTrigger: a stop trigger that fires when a monitored value stops improving."""

from __future__ import annotations

import operator
import warnings

from framework import backend, reporter
from framework.training.triggers.interval_trigger import get_trigger


class EarlyStoppingTrigger:
    """A stop trigger for early stopping.

    The mean of the monitored value over each interval of ``check_trigger`` is compared with
    the best mean so far; after ``patience`` checks in a row without improvement the trigger
    fires (the training stops). It fires in any case when ``max_trigger`` does.

    Args:
        check_trigger: when to check the monitored value (``(1, 'epoch')``).
        monitor (str): the observed key to monitor.
        patience (int): the number of checks without improvement that stops the training
            (3 when None).
        mode (str): ``'max'`` (greater is better), ``'min'``, or ``'auto'``: ``'max'`` when
            ``monitor`` contains ``'accuracy'``, ``'min'`` otherwise.
        verbose (bool): whether to print the mode and the stop.
        max_trigger: the longest training, e.g. ``(100, 'epoch')``.
        patients (int): an alias of ``patience`` (Chainer's old spelling).

    Attributes:
        count (int): the number of checks since the last improvement.
        best (float): the best mean so far.
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor: str = 'main/loss',
                 patience: int | None = None, mode: str = 'auto', verbose: bool = False,
                 max_trigger=(100, 'epoch'), *, patients: int | None = None):
        if patients is not None:
            if patience is not None:
                raise TypeError("EarlyStoppingTrigger: both 'patience' and 'patients' are given;"
                                " 'patients' is an alias of 'patience', give only 'patience'")
            patience = patients
        if mode not in ('auto', 'max', 'min'):
            raise ValueError("EarlyStoppingTrigger: mode must be 'auto', 'max' or 'min', but "
                             f'got {mode!r}')
        self.count = 0
        self.patience = 3 if patience is None else patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = get_trigger(max_trigger)
        self._interval_trigger = get_trigger(check_trigger)
        self._summary = reporter.DictSummary()
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        self._compare = operator.gt if mode == 'max' else operator.lt
        self.best = float('-inf') if mode == 'max' else float('inf')
        if verbose:
            print(f"early stopping: operator is {'greater' if mode == 'max' else 'less'}")

    def __call__(self, trainer) -> bool:
        """Accumulates the monitored value; whether to stop the training now."""
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        if self.monitor not in observation:
            warnings.warn(f'EarlyStoppingTrigger: {self.monitor!r} is not in the observation',
                          stacklevel=2)
            return False
        current = float(backend.to_cpu(self._summary.compute_mean()[self.monitor]))
        self._summary = reporter.DictSummary()
        if self._compare(current, self.best):
            self.best = current
            self.count = 0
        else:
            self.count += 1
        if self._stop_condition():
            if self.verbose:
                print(f'Epoch {trainer.updater.epoch}: early stopping')
            return True
        return False

    def _stop_condition(self) -> bool:
        return self.count >= self.patience

    def get_training_length(self) -> tuple:
        """The length of ``max_trigger``: the longest training."""
        return self._max_trigger.get_training_length()

    def serialize(self, serializer) -> None:
        """Saves or loads the state (not in Chainer, whose trigger restarts its count when
        resumed): the inner triggers, the running summary, ``count`` and ``best``."""
        for name, trigger in (('max_trigger', self._max_trigger),
                              ('interval_trigger', self._interval_trigger)):
            if hasattr(trigger, 'serialize'):
                trigger.serialize(serializer[name])
        self._summary.serialize(serializer['summary'])
        self.count = int(serializer('count', self.count))
        self.best = float(serializer('best', self.best))
