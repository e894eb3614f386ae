"""get_trigger: from what the user gives to a trigger."""

import pytest

from framework import training
from framework.training import triggers


def test_get_trigger():
    def fn(trainer):
        return True

    assert training.get_trigger(fn) is fn
    interval = training.get_trigger((3, 'epoch'))
    assert isinstance(interval, triggers.IntervalTrigger)
    assert (interval.period, interval.unit) == (3, 'epoch')
    assert training.get_trigger(None)(None) is False
    with pytest.raises(TypeError, match='get_trigger: trigger must be'):
        training.get_trigger(3)
    with pytest.raises(ValueError, match="unit must be 'epoch' or 'iteration'"):
        training.get_trigger((3, 'epochs'))
