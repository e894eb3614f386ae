"""Every shift extension resumed from a snapshot gives the values of an uninterrupted run,
from the first update after the resume on."""

import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions

SHIFTS = {
    'ExponentialShift': lambda: extensions.ExponentialShift('lr', 0.7, target=0.2),
    'StepShift': lambda: extensions.StepShift('lr', 0.5, 3),
    'PolynomialShift': lambda: extensions.PolynomialShift('lr', 1.5, 8),
    'LinearShift': lambda: extensions.LinearShift('lr', (1.0, 0.1), (2, 7)),
    'MultistepShift': lambda: extensions.MultistepShift('lr', 0.5, [2, 3, 6], None),
    'WarmupShift': lambda: extensions.WarmupShift('lr', 0.1, 5, 1.0),
}
KEYS = {'MultistepShift': ['_current_step', '_t'], 'WarmupShift': ['_t']}


def _run(make_trainer, record_values, make_shift, stop, state=None):
    trainer = make_trainer((stop, 'iteration'))
    trainer.updater.get_optimizer('main').lr = 1.0
    values = record_values(trainer)
    trainer.extend(make_shift(), name='shift')
    if state is not None:
        trainer.serialize(NpzDeserializer(state))
    trainer.run()
    saver = DictionarySerializer()
    trainer.serialize(saver)
    return values, saver.target


@pytest.mark.parametrize('name', sorted(SHIFTS))
@pytest.mark.parametrize('split', [1, 4, 6])
def test_resume_matches_an_uninterrupted_run(make_trainer, record_values, name, split):
    reference, _ = _run(make_trainer, record_values, SHIFTS[name], 9)
    first, state = _run(make_trainer, record_values, SHIFTS[name], split)
    assert sorted(k[len('extensions/shift/'):] for k in state
                  if k.startswith('extensions/shift/')) == KEYS.get(name, ['_last_value', '_t'])
    rest, _ = _run(make_trainer, record_values, SHIFTS[name], 9, state)
    assert first + rest[1:] == reference
    assert rest[0] == reference[split]
