"""IntervalTrigger: fires at multiples of the period, in iterations or (fractional) epochs."""

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer, load_npz
from framework.training import triggers


def _fires(trigger, trainer, advance, n):
    fired = []
    for _ in range(n):
        advance(trainer)
        fired.append(trigger(trainer))
    return fired


@pytest.mark.parametrize('period,unit,iter_per_epoch,expected', [
    (2, 'iteration', 5, [False, True, False, True, False, True]),
    (1, 'epoch', 3, [False, False, True, False, False, True]),
    (0.5, 'epoch', 4, [False, True, False, True, False, True]),
    (1.5, 'epoch', 2, [False, False, True, False, False, True]),
    (1, 'epoch', 2.5, [False, False, True, False, True, False]),
])
def test_fire_pattern(make_trainer, advance, period, unit, iter_per_epoch, expected):
    trainer = make_trainer(iter_per_epoch=iter_per_epoch)
    trigger = triggers.IntervalTrigger(period, unit)
    assert _fires(trigger, trainer, advance, len(expected)) == expected


def test_fires_once_per_crossing_when_called_rarely(make_trainer, advance):
    trainer = make_trainer(iter_per_epoch=10)
    trigger = triggers.IntervalTrigger(3, 'iteration')
    advance(trainer, 7)
    assert trigger(trainer)  # crossed 3 and 6: fires once
    advance(trainer, 1)
    assert not trigger(trainer)


def test_resume_gives_the_same_pattern(make_trainer, advance):
    trainer = make_trainer(iter_per_epoch=4)
    trigger = triggers.IntervalTrigger(0.75, 'epoch')
    first = _fires(trigger, trainer, advance, 5)
    saver = DictionarySerializer()
    trigger.serialize(saver)
    assert sorted(saver.target) == ['previous_epoch_detail', 'previous_iteration']
    resumed = triggers.IntervalTrigger(0.75, 'epoch')
    resumed.serialize(NpzDeserializer(saver.target))
    rest = _fires(resumed, trainer, advance, 7)
    reference = triggers.IntervalTrigger(0.75, 'epoch')
    assert first + rest == _fires(reference, make_trainer(iter_per_epoch=4), advance, 12)


def test_missing_state_warns_and_guesses(make_trainer, advance):
    trainer = make_trainer(iter_per_epoch=4)
    trigger = triggers.IntervalTrigger(2, 'iteration')
    with pytest.warns(UserWarning, match='previous iteration was not saved'):
        trigger.serialize(NpzDeserializer({'previous_epoch_detail': 0.}))
    advance(trainer, 2)
    assert trigger(trainer)


def test_training_length_and_str():
    trigger = triggers.IntervalTrigger(3, 'epoch')
    assert trigger.get_training_length() == (3, 'epoch')
    assert str(trigger) == "IntervalTrigger(3, 'epoch')"
    with pytest.raises(ValueError, match='IntervalTrigger: unit'):
        triggers.IntervalTrigger(1, 'second')


def test_load_npz_of_a_file_without_the_previous_position_warns(make_trainer, advance, tmp_path):
    path = tmp_path / 'old.npz'
    numpy.savez(path, dummy=0)  # a snapshot of a version that saved nothing
    trigger = triggers.IntervalTrigger(2, 'iteration')
    with pytest.warns(UserWarning) as record:
        load_npz(str(path), trigger)
    messages = ' '.join(str(w.message) for w in record)
    assert 'previous iteration was not saved' in messages
    assert 'previous epoch detail was not saved' in messages
    trainer = make_trainer()
    advance(trainer, 3)
    assert [trigger(trainer), _fires(trigger, trainer, advance, 1)] == [False, [True]]
