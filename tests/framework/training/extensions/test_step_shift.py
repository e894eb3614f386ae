"""StepShift: init * gamma ** floor(t / step), stopped at a target."""

import pytest

from framework.training import extensions


def _values(make_trainer, record_values, extension, n):
    trainer = make_trainer((n, 'iteration'))
    trainer.updater.get_optimizer('main').lr = 1.0
    values = record_values(trainer)
    trainer.extend(extension)
    trainer.run()
    return values


def test_steps(make_trainer, record_values):
    shift = extensions.StepShift('lr', 0.1, 2)
    assert _values(make_trainer, record_values, shift, 5) == pytest.approx(
        [1.0, 1.0, 0.1, 0.1, 0.01, 0.01])


def test_target(make_trainer, record_values):
    shift = extensions.StepShift('lr', 0.1, 2, init=2.0, target=0.05)
    assert _values(make_trainer, record_values, shift, 6) == pytest.approx(
        [2.0, 2.0, 0.2, 0.2, 0.05, 0.05, 0.05])
    shift = extensions.StepShift('lr', 3.0, 1, init=1.0, target=10.0)
    assert _values(make_trainer, record_values, shift, 3) == pytest.approx(
        [1.0, 3.0, 9.0, 10.0])
