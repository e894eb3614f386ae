"""Triggers (``from framework.training import triggers``): callables ``trigger(trainer)`` that
decide when an extension runs or when the training stops, with Chainer's names."""

from framework.training.triggers.early_stopping_trigger import EarlyStoppingTrigger
from framework.training.triggers.interval_trigger import IntervalTrigger
from framework.training.triggers.manual_schedule_trigger import ManualScheduleTrigger
from framework.training.triggers.minmax_value_trigger import (
    BestValueTrigger,
    MaxValueTrigger,
    MinValueTrigger,
)
from framework.training.triggers.once_trigger import OnceTrigger
from framework.training.triggers.time_trigger import TimeTrigger

__all__ = [
    'BestValueTrigger', 'EarlyStoppingTrigger', 'IntervalTrigger', 'ManualScheduleTrigger',
    'MaxValueTrigger', 'MinValueTrigger', 'OnceTrigger', 'TimeTrigger',
]
