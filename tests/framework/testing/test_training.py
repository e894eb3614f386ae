import pytest

from framework import training
from framework.testing import get_trainer_with_mock_updater


def test_the_updater_counts_iterations_and_epochs():
    calls = []

    @training.make_extension(trigger=(1, 'iteration'))
    def record(trainer):
        updater = trainer.updater
        calls.append((updater.iteration, updater.epoch, updater.epoch_detail,
                      updater.is_new_epoch))

    trainer = get_trainer_with_mock_updater((7, 'iteration'), iter_per_epoch=3,
                                            extensions=[record])
    trainer.run()
    assert [c[0] for c in calls] == list(range(1, 8))
    assert [c[1] for c in calls] == [0, 0, 1, 1, 1, 2, 2]
    assert [c[3] for c in calls] == [False, False, True, False, False, True, False]
    assert calls[-1][2] == pytest.approx(7 / 3)
    assert trainer.updater.get_all_optimizers() == {}
