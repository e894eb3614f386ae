"""TimeTrigger: fires every period of elapsed training time."""

import types

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import triggers


def test_fires_after_each_period():
    trigger = triggers.TimeTrigger(1.0)
    trainer = types.SimpleNamespace(elapsed_time=0.5)
    assert not trigger(trainer)
    trainer.elapsed_time = 1.2
    assert trigger(trainer)
    assert not trigger(trainer)
    trainer.elapsed_time = 2.5
    assert trigger(trainer)
    saver = DictionarySerializer()
    trigger.serialize(saver)
    resumed = triggers.TimeTrigger(1.0)
    resumed.serialize(NpzDeserializer(saver.target))
    assert not resumed(trainer)
    trainer.elapsed_time = 3.1
    assert resumed(trainer)
