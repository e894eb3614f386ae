"""OnceTrigger: fires at the first call (and once after a resume, when asked)."""

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer, load_npz
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


def test_loading_a_file_without_the_flag_warns_and_takes_the_first_call_as_done(tmp_path):
    path = tmp_path / 'old.npz'
    numpy.savez(path, dummy=0)  # a snapshot of a version that saved nothing
    trigger = triggers.OnceTrigger()
    with pytest.warns(UserWarning, match='flag was not saved'):
        load_npz(str(path), trigger)
    assert trigger(None) is False
