"""make_shift: the decorated function's value is set before the loop and after each update."""

import pytest

from framework import optimizers
from framework.links import Linear
from framework.training import extensions


def test_sets_the_attribute_before_the_loop_and_at_every_iteration(make_trainer,
                                                                    record_values):
    trainer = make_trainer((6, 'iteration'))
    values = record_values(trainer)

    @extensions.make_shift('lr')
    def mod3(trainer):
        return 0.1 * (trainer.updater.iteration % 3)

    trainer.extend(mod3)
    trainer.run()
    assert values == pytest.approx([0.0, 0.1, 0.2, 0.0, 0.1, 0.2, 0.0])


def test_is_named_after_the_function_and_targets_the_given_optimizer(make_trainer):
    trainer = make_trainer((2, 'iteration'))
    other = optimizers.MomentumSGD().setup(Linear(2, 2))

    @extensions.make_shift('momentum', optimizer=other)
    def constant(trainer):
        return 0.5

    trainer.extend(constant)
    assert trainer.get_extension('constant') is constant
    trainer.run()
    assert other.momentum == 0.5
    assert not hasattr(trainer.updater.get_optimizer('main'), 'momentum')
