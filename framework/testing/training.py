"""A trainer whose updater only counts iterations, for testing extensions (Chainer's
``chainer.testing.get_trainer_with_mock_updater``)."""

from __future__ import annotations

from unittest import mock

from framework import training


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'), iter_per_epoch: int = 10,
                                  extensions=None) -> training.Trainer:
    """Returns a :class:`~framework.training.Trainer` over a :class:`unittest.mock.Mock`
    updater whose ``update()`` only advances ``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch``, with ``iter_per_epoch`` iterations an
    epoch, and which has no optimizers.

    Args:
        stop_trigger: the trainer's stop trigger.
        iter_per_epoch (int): the iterations of an epoch.
        extensions (list): extensions given to the trainer.
    """
    updater = mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.is_new_epoch = True
    updater.previous_epoch_detail = None

    def update():
        updater.update_called = True
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = (updater.iteration - 1) // iter_per_epoch != updater.epoch
        updater.previous_epoch_detail = (updater.iteration - 1) / iter_per_epoch

    updater.update = update
    return training.Trainer(updater, stop_trigger, extensions=extensions)
