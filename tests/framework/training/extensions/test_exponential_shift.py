"""ExponentialShift: init * rate ** t, stopped at a target."""

import pytest

from framework.training import extensions


def test_decay_from_the_optimizer_value(shift_values):
    values = shift_values(extensions.ExponentialShift('lr', 0.5), 4, lr=0.5)
    assert values == pytest.approx([0.5, 0.25, 0.125, 0.0625, 0.03125])


def test_init_and_target(shift_values):
    shift = extensions.ExponentialShift('lr', 0.5, init=2.0, target=0.4)
    assert shift_values(shift, 4) == pytest.approx([2.0, 1.0, 0.5, 0.4, 0.4])
    shift = extensions.ExponentialShift('lr', 2.0, init=1.0, target=5.0)
    assert shift_values(shift, 4) == pytest.approx([1.0, 2.0, 4.0, 5.0, 5.0])


def test_explicit_optimizer(make_trainer):
    trainer = make_trainer((2, 'iteration'))
    other = type(trainer.updater.get_optimizer('main'))(lr=1.0)
    trainer.extend(extensions.ExponentialShift('lr', 0.5, optimizer=other))
    trainer.run()
    assert other.lr == 0.25 and trainer.updater.get_optimizer('main').lr != 0.25


def test_negative_rate_is_refused():
    with pytest.raises(ValueError, match='rate must be non-negative'):
        extensions.ExponentialShift('lr', -0.5)
