"""EarlyStoppingTrigger: stops when the monitored value stops improving."""

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import triggers


def _run(trigger, trainer, advance, values, key='main/loss'):
    fired = []
    for value in values:
        advance(trainer)
        trainer.observation = {key: numpy.float32(value)}
        fired.append(trigger(trainer))
    return fired


def test_stops_after_patience_checks_without_improvement(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=2)
    assert _run(trigger, trainer, advance, [3, 2, 2.5, 1, 1.5, 1.2]) == [
        False, False, False, False, False, True]


def test_auto_mode_maximizes_accuracy(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=1,
                                            monitor='main/accuracy')
    assert trigger.best == float('-inf')
    assert _run(trigger, trainer, advance, [0.5, 0.6, 0.55], key='main/accuracy') == [
        False, False, True]


def test_max_trigger_stops_anyway(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'),
                                            max_trigger=(3, 'iteration'))
    assert _run(trigger, trainer, advance, [3, 2, 1]) == [False, False, True]
    assert trigger.get_training_length() == (3, 'iteration')


def test_patients_alias_and_errors():
    assert triggers.EarlyStoppingTrigger(patients=5).patience == 5
    assert triggers.EarlyStoppingTrigger().patience == 3
    with pytest.raises(TypeError, match="both 'patience' and 'patients'"):
        triggers.EarlyStoppingTrigger(patience=1, patients=2)
    with pytest.raises(ValueError, match="mode must be 'auto', 'max' or 'min'"):
        triggers.EarlyStoppingTrigger(mode='best')


def test_missing_monitor_warns(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'))
    with pytest.warns(UserWarning, match="'main/loss' is not in the observation"):
        assert _run(trigger, trainer, advance, [1], key='other') == [False]


def test_serialize_round_trip(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=2)
    _run(trigger, trainer, advance, [3, 2, 2.5])
    saver = DictionarySerializer()
    trigger.serialize(saver)
    resumed = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=2)
    resumed.serialize(NpzDeserializer(saver.target))
    assert (resumed.count, resumed.best) == (1, 2.0)
    assert _run(resumed, trainer, advance, [2.2]) == [True]
