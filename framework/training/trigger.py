"""Turning what the user gives as a trigger into a trigger (Chainer's
``chainer.training.trigger``)."""

from framework.training.triggers.interval_trigger import IntervalTrigger, get_trigger

__all__ = ['IntervalTrigger', 'get_trigger']
