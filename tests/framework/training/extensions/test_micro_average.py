"""MicroAverage: sum(numerator) / sum(denominator) over an interval."""

import numpy
import pytest

import framework
from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions


def _values(iteration):
    correct = [1, 3, 2, 4][iteration - 1]
    total = [2, 4, 4, 4][iteration - 1]
    return {'correct': framework.Variable(numpy.array(correct, numpy.int32)), 'total': total}


def test_micro_average_is_reported_at_the_interval(make_trainer, report_values):
    trainer = make_trainer((4, 'iteration'))
    seen = []
    ext = extensions.MicroAverage('correct', 'total', 'accuracy', trigger=(2, 'iteration'))
    trainer.extend(report_values(_values))
    trainer.extend(ext)
    trainer.extend(lambda t: seen.append(t.observation.get('accuracy')), name='read')
    trainer.run()
    assert seen == [None, pytest.approx(4 / 6), None, pytest.approx(6 / 8)]


def test_missing_keys_are_skipped_and_state_round_trips(make_trainer, report_values):
    trainer = make_trainer((1, 'iteration'))
    ext = extensions.MicroAverage('correct', 'total', 'accuracy', trigger=(2, 'iteration'))
    trainer.extend(report_values(_values))
    trainer.extend(ext)
    trainer.extend(extensions.MicroAverage('nope', 'total', 'x'), name='skip')
    trainer.run()
    saver = DictionarySerializer()
    ext.serialize(saver)
    restored = extensions.MicroAverage('correct', 'total', 'accuracy')
    restored.serialize(NpzDeserializer(saver.target))
    assert (restored._numerator, restored._denominator) == (1, 2)
