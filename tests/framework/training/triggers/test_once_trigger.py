"""OnceTrigger: fires at the first call (and once after a resume, when asked)."""

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import triggers


def test_fires_once():
    trigger = triggers.OnceTrigger()
    assert not trigger.finished
    assert [trigger(None) for _ in range(3)] == [True, False, False]
    assert trigger.finished


def test_call_on_resume():
    trigger = triggers.OnceTrigger(call_on_resume=True)
    trigger(None)
    saver = DictionarySerializer()
    trigger.serialize(saver)
    for call_on_resume, expected in ((True, [True, False]), (False, [False, False])):
        resumed = triggers.OnceTrigger(call_on_resume=call_on_resume)
        resumed.serialize(NpzDeserializer(saver.target))
        assert [resumed(None), resumed(None)] == expected
