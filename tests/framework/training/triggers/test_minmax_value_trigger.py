"""MaxValueTrigger and MinValueTrigger: fire on a new best of an interval's mean."""

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import triggers


def _run(trigger, trainer, advance, values):
    fired = []
    for value in values:
        advance(trainer)
        trainer.observation = {'key': numpy.float32(value)}
        fired.append(trigger(trainer))
    return fired


@pytest.mark.parametrize('cls,expected', [
    (triggers.MaxValueTrigger, [False, True, False, True, False, False]),
    (triggers.MinValueTrigger, [False, True, False, False, False, True]),
])
def test_fires_on_a_new_best_of_the_interval_mean(make_trainer, advance, cls, expected):
    trainer = make_trainer()
    trigger = cls('key', trigger=(2, 'iteration'))
    # interval means: 2, 3, 1
    assert _run(trigger, trainer, advance, [1, 3, 2, 4, 0, 2]) == expected


def test_missing_key_at_the_interval_raises(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.MinValueTrigger('other', trigger=(1, 'iteration'))
    with pytest.raises(KeyError, match="'other' was not observed"):
        _run(trigger, trainer, advance, [1])


def test_serialize_round_trip(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.MinValueTrigger('key', trigger=(2, 'iteration'))
    _run(trigger, trainer, advance, [3, 1, 5])
    saver = DictionarySerializer()
    trigger.serialize(saver)
    assert {'best_value', 'interval_trigger/previous_iteration', 'summary/_names'} <= set(
        saver.target)
    resumed = triggers.MinValueTrigger('key', trigger=(2, 'iteration'))
    resumed.serialize(NpzDeserializer(saver.target))
    assert resumed._best_value == 2.0
    # The mean includes the value observed before the snapshot: (5 - 0.5) / 2 > 2.
    assert _run(resumed, trainer, advance, [-0.5]) == [False]
