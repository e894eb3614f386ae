"""The extension protocol of the :class:`~framework.training.Trainer` (Chainer's).

An extension is a callable ``extension(trainer)`` invoked after updates that its trigger
accepts. It may carry defaults as attributes: ``trigger`` (``(1, 'iteration')`` when absent),
``priority`` (higher runs first in an iteration), ``default_name`` or ``name``; and methods:
``initialize(trainer)`` before the loop (also after a snapshot was loaded), ``on_error(trainer,
exc, tb)`` when the loop raises, ``finalize()`` after the loop, ``serialize(serializer)`` for
snapshots. Subclass :class:`Extension`, or decorate a function with :func:`make_extension`.
"""

from __future__ import annotations

from collections.abc import Callable

#: Priority of extensions that write records to the observation (Evaluator, observe_value).
PRIORITY_WRITER = 300
#: Priority of extensions that edit records already in the observation (MicroAverage).
PRIORITY_EDITOR = 200
#: Priority of extensions that only read the observation (LogReport, PrintReport).
PRIORITY_READER = 100
#: Priority of snapshot extensions: after every other one, so that a snapshot holds the
#: state that the other extensions reached in the iteration.
PRIORITY_SNAPSHOT = -100


class Extension:
    """The base class of trainer extensions.

    Attributes:
        trigger: the default trigger, ``(1, 'iteration')``.
        priority: the default priority, :data:`PRIORITY_READER`.
        name (str): the name given by :meth:`Trainer.extend <framework.training.Trainer.extend>`
            (None until then).
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name: str | None = None

    @property
    def default_name(self) -> str:
        """The name used when none is given: the class name."""
        return type(self).__name__

    def __call__(self, trainer) -> None:
        """Runs the extension; called at the iterations that its trigger accepts."""
        raise NotImplementedError(f'{type(self).__name__} must implement __call__')

    def initialize(self, trainer) -> None:
        """Sets up the state of the trainer before the loop starts (also after a snapshot was
        loaded, which it must then take into account)."""

    def on_error(self, trainer, exc: Exception, tb) -> None:
        """Called when the training loop raises ``exc`` (with traceback ``tb``); what it raises
        is printed and ignored."""

    def finalize(self) -> None:
        """Releases what the extension holds; called once the loop is over."""

    def serialize(self, serializer) -> None:
        """Saves or loads the state of the extension (nothing by default)."""


def make_extension(trigger=None, default_name: str | None = None, priority: int | None = None,
                   finalizer: Callable | None = None, initializer: Callable | None = None,
                   on_error: Callable | None = None, **kwargs) -> Callable:
    """A decorator that makes a function an extension by giving it the extension attributes.

    Args:
        trigger: the default trigger; ``(1, 'iteration')`` when None.
        default_name (str): the default name; the function's ``__name__`` when None.
        priority (int): the default priority; :data:`PRIORITY_READER` when None.
        finalizer (callable): called with no argument after the loop.
        initializer (callable): called with the trainer before the loop.
        on_error (callable): called as ``on_error(trainer, exc, tb)`` when the loop raises.

    Returns:
        The decorator; it returns the function itself, with the attributes set.

    Raises:
        ValueError: for ``invoke_before_training``, removed in Chainer 2 (as Chainer does).
        TypeError: for any other unexpected keyword argument.
    """
    if 'invoke_before_training' in kwargs:
        raise ValueError('make_extension: invoke_before_training was removed in Chainer 2; '
                         'give initializer= instead')
    if kwargs:
        raise TypeError(f'make_extension: unexpected keyword arguments {sorted(kwargs)}')
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
