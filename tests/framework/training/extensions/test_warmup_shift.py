"""WarmupShift: from warmup_start to init over warmup_iter calls, then hands over."""

import pytest

from framework.training import extensions


def test_warmup_then_leaves_the_attribute_alone(make_trainer, record_values):
    trainer = make_trainer((6, 'iteration'))
    optimizer = trainer.updater.get_optimizer('main')
    values = record_values(trainer)
    trainer.extend(extensions.WarmupShift('lr', 0.0, 4, 0.8))
    # another schedule that takes over after the warm-up (called after WarmupShift)
    trainer.extend(lambda t: setattr(optimizer, 'lr', optimizer.lr * 0.5)
                   if t.updater.iteration > 4 else None, name='decay', priority=0)
    trainer.run()
    assert values == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8, 0.4, 0.2])


def test_warmup_start_none_reads_the_optimizer(make_trainer, record_values):
    trainer = make_trainer((2, 'iteration'))
    trainer.updater.get_optimizer('main').lr = 0.2
    values = record_values(trainer)
    trainer.extend(extensions.WarmupShift('lr', None, 2, 1.0))
    trainer.run()
    assert values == pytest.approx([0.2, 0.6, 1.0])
