"""observe_value and observe_lr: put a value computed from the trainer into the observation."""

from __future__ import annotations

from collections.abc import Callable

from framework.training import extension


def observe_value(observation_key: str, target_func: Callable) -> Callable:
    """Returns an extension that stores ``target_func(trainer)`` in the observation.

    It runs once per epoch by default, with the priority of writers (before LogReport reads).

    Args:
        observation_key (str): the key of the value in the observation.
        target_func (callable): computes the value from the trainer.
    """
    @extension.make_extension(trigger=(1, 'epoch'), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name: str = 'main', observation_key: str = 'lr') -> Callable:
    """Returns an extension that stores the learning rate (``optimizer.lr``) of an optimizer
    of the updater in the observation.

    Args:
        optimizer_name (str): the name of the optimizer in the updater.
        observation_key (str): the key of the value in the observation.
    """
    return observe_value(
        observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
