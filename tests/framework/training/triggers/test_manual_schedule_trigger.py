"""ManualScheduleTrigger: fires at listed iterations or epochs."""

import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import triggers


@pytest.mark.parametrize('points,unit,iter_per_epoch,expected', [
    ([2, 5], 'iteration', 5, [False, True, False, False, True, False]),
    (3, 'iteration', 5, [False, False, True, False, False, False]),
    ([0.5, 1.25], 'epoch', 4, [False, True, False, False, True, False]),
])
def test_fire_pattern(make_trainer, advance, points, unit, iter_per_epoch, expected):
    trainer = make_trainer(iter_per_epoch=iter_per_epoch)
    trigger = triggers.ManualScheduleTrigger(points, unit)
    fired = []
    for _ in expected:
        advance(trainer)
        fired.append(trigger(trainer))
    assert fired == expected


def test_finished_after_the_last_point(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.ManualScheduleTrigger([1, 3], 'iteration')
    finished = []
    for _ in range(4):
        advance(trainer)
        trigger(trainer)
        finished.append(trigger.finished)
    assert finished == [False, False, True, True]


def test_serialize_round_trip(make_trainer, advance):
    trainer = make_trainer()
    trigger = triggers.ManualScheduleTrigger([2, 4], 'iteration')
    for _ in range(2):
        advance(trainer)
        trigger(trainer)
    saver = DictionarySerializer()
    trigger.serialize(saver)
    assert sorted(saver.target) == ['finished', 'previous_epoch_detail', 'previous_iteration']
    resumed = triggers.ManualScheduleTrigger([2, 4], 'iteration')
    resumed.serialize(NpzDeserializer(saver.target))
    advance(trainer, 2)
    assert resumed(trainer) and resumed.finished


def test_bad_unit():
    with pytest.raises(ValueError, match='ManualScheduleTrigger: unit'):
        triggers.ManualScheduleTrigger(1, 'hours')
