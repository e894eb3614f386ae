"""make_shift: a decorator that turns a schedule function into a shift extension."""

from __future__ import annotations

from collections.abc import Callable

from framework.training.extension import make_extension


def make_shift(attr: str, optimizer=None) -> Callable:
    """A decorator that makes an extension setting an optimizer attribute to what the
    decorated function returns, before the training starts and at every iteration (as
    ChainerCV's ``chainercv.chainer_experimental.training.extensions.make_shift``)::

        @make_shift('lr')
        def warmup(trainer):
            return 0.1 * min(1, trainer.updater.iteration / 1000)

        trainer.extend(warmup)

    Args:
        attr (str): the name of the optimizer attribute (``'lr'``).
        optimizer: the optimizer; the updater's ``'main'`` one when None.

    Returns:
        The decorator; it takes ``func(trainer)``, which returns the new value of the
        attribute, and returns the extension, named after ``func``.
    """
    def decorator(func: Callable) -> Callable:
        def shift(trainer) -> None:
            target = optimizer or trainer.updater.get_optimizer('main')
            setattr(target, attr, func(trainer))

        return make_extension(default_name=func.__name__, initializer=shift)(shift)

    return decorator
