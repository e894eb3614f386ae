"""MultistepShift: init * gamma ** (number of step values reached)."""

import pytest

from framework.training import extensions


def test_steps(make_trainer, record_values):
    trainer = make_trainer((6, 'iteration'))
    values = record_values(trainer)
    trainer.extend(extensions.MultistepShift('lr', 0.1, [2, 4, 5], 1.0))
    trainer.run()
    assert values == pytest.approx([1.0, 1.0, 0.1, 0.1, 0.01, 0.001, 0.001])


def test_init_none_reads_the_optimizer(make_trainer, record_values):
    trainer = make_trainer((2, 'iteration'))
    trainer.updater.get_optimizer('main').lr = 0.4
    values = record_values(trainer)
    trainer.extend(extensions.MultistepShift('lr', 0.5, [1], None))
    trainer.run()
    assert values == pytest.approx([0.4, 0.2, 0.2])
