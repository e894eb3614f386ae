"""Trainer: the training loop (Chainer's ``chainer.training.Trainer``)."""

from __future__ import annotations

import collections
import os
import sys
import time
import traceback

from framework import reporter as reporter_module
from framework.serializers.serializer import Serializer
from framework.training import extension as extension_module
from framework.training.trigger import get_trigger


class _ExtensionEntry:
    def __init__(self, extension, priority: int, trigger, call_before_training: bool):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The standard training loop.

    Each iteration updates the models through the updater and then runs, in descending order
    of priority (in the order of registration among equal priorities), every extension whose
    trigger fires. The loop ends when the stop trigger fires.

    The values reported during an iteration go to :attr:`observation`, a fresh dictionary per
    iteration. The target link of each optimizer is an observer named after the optimizer
    (``'main'``), and its descendants after their paths (``'main/predictor'``...).

    The trainer is serializable: a snapshot (:func:`~framework.training.extensions.snapshot`)
    holds the updater (iterators, optimizers, models), the stop trigger, every extension and
    its trigger, and the elapsed time, so that a training can be resumed where it stopped.

    Args:
        updater (~framework.training.Updater): the updater.
        stop_trigger: when to stop: a trigger, a ``(length, unit)`` pair such as
            ``(20, 'epoch')``, or None (never).
        out (str): the output directory (made by :meth:`run`).
        extensions (list): extensions to register with their defaults.

    Attributes:
        updater: the updater.
        stop_trigger: the stop trigger.
        observation (dict): the values reported during the current (or last) iteration.
        out (str): the output directory.
        reporter (~framework.reporter.Reporter): the reporter of the training loop.
    """

    def __init__(self, updater, stop_trigger=None, out: str = 'result', extensions=None):
        self.updater = updater
        self.stop_trigger = get_trigger(stop_trigger)
        self.observation: dict = {}
        self.out = out
        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self.reporter = reporter
        self._done = False
        self._extensions: dict[str, _ExtensionEntry] = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def is_before_training(self) -> bool:
        """Whether no update has been made yet."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self) -> float:
        """Seconds of training, including those before a resume from a snapshot.

        Raises:
            RuntimeError: the training has not started.
        """
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('Trainer.elapsed_time: the training has not been started yet')
        return time.perf_counter() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name: str | None = None, trigger=None,
               priority: int | None = None, *, call_before_training: bool = False) -> None:
        """Registers an extension.

        Args:
            extension: the extension (a callable taking the trainer).
            name (str): its name; by default the extension's ``name``, ``default_name`` or
                ``__name__``. A name already taken gets a suffix ``_1``, ``_2``...
            trigger: when to run it; by default the extension's ``trigger``, else every
                iteration. A ``(period, unit)`` pair makes an
                :class:`~framework.training.triggers.IntervalTrigger`.
            priority (int): by default the extension's ``priority``, else
                :data:`~framework.training.PRIORITY_READER`.
            call_before_training (bool): whether to run it once before the first iteration
                too.

        Raises:
            TypeError: no name is given and the extension has none.
            ValueError: the name is ``'training'``.
        """
        if name is None:
            name = (getattr(extension, 'name', None) or getattr(extension, 'default_name', None)
                    or getattr(extension, '__name__', None))
            if name is None:
                raise TypeError('Trainer.extend: the extension has no name, default_name or '
                                '__name__; pass name=')
        if name == 'training':
            raise ValueError("Trainer.extend: the name 'training' is reserved; choose another "
                             'name for the extension')
        if trigger is None:
            trigger = getattr(extension, 'trigger', (1, 'iteration'))
        trigger = get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, 'priority', extension_module.PRIORITY_READER)
        modified_name = name
        ordinal = 0
        while modified_name in self._extensions:
            ordinal += 1
            modified_name = f'{name}_{ordinal}'
        extension.name = modified_name
        self._extensions[modified_name] = _ExtensionEntry(extension, priority, trigger,
                                                          call_before_training)

    def get_extension(self, name: str):
        """The extension registered as ``name``.

        Raises:
            ValueError: no extension has this name.
        """
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(f'Trainer.get_extension: no extension named {name!r} (the '
                             f'extensions are {list(self._extensions)})')
        return entry.extension

    def run(self, show_loop_exception_msg: bool = True) -> None:
        """Runs the training loop until the stop trigger fires.

        Before the loop, the output directory is made, snapshots with ``autoload`` are loaded
        and then every extension's ``initialize`` is called (except for extensions whose
        trigger has ``finished``), so that initializers see the resumed state; after it (also
        when it raises), every ``finalize`` and the updater's, so that the work they wait for
        (snapshots written in the background, batches being loaded) is done when ``run``
        returns or raises. When the loop raises, each extension's ``on_error`` is called
        before the exception propagates, and an error of a ``finalize`` is written to stderr;
        otherwise the first error of a ``finalize`` is raised once every one has run.

        Args:
            show_loop_exception_msg (bool): whether to print the exception to stderr before
                finalizing (a finalizer that hangs then does not hide it).

        Raises:
            RuntimeError: the trainer has already run.
        """
        if self._done:
            raise RuntimeError('Trainer.run: a trainer can run only once; make a new one')
        os.makedirs(self.out, exist_ok=True)
        extensions = sorted(self._extensions.items(), key=lambda item: item[1].priority,
                            reverse=True)
        self._start_at = time.perf_counter()
        for _, entry in extensions:
            autoload = getattr(entry.extension, '_autoload', None)
            if autoload:
                autoload(self)
        for _, entry in extensions:
            initializer = getattr(entry.extension, 'initialize', None)
            if initializer and not getattr(entry.trigger, 'finished', False):
                initializer(self)

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        self.observation = {}
        with reporter.scope(self.observation):
            for _, entry in extensions:
                if entry.call_before_training:
                    entry.extension(self)
        loop_failed = True
        try:
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
            loop_failed = False
        except Exception as e:
            if show_loop_exception_msg:
                sys.stderr.write(f'Exception in main training loop: {e}\n'
                                 'Traceback (most recent call last):\n')
                traceback.print_tb(sys.exc_info()[2])
                sys.stderr.write('Will finalize trainer extensions and updater before '
                                 'reraising the exception.\n')
            for _, entry in extensions:
                handler = getattr(entry.extension, 'on_error', None)
                if handler:
                    try:
                        handler(self, e, sys.exc_info()[2])
                    except Exception as handler_error:
                        sys.stderr.write(f'Exception in error handler: {handler_error}\n'
                                         'Traceback (most recent call last):\n')
                        traceback.print_tb(sys.exc_info()[2])
            raise
        finally:
            self._finalize(extensions, loop_failed)
        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def _finalize(self, extensions, loop_failed: bool) -> None:
        """Calls every extension's ``finalize``, then the updater's, even when one raises: a
        background snapshot writer or a prefetching iterator waits there for its work. The
        first error is raised once all have run, the others are written to stderr; when the
        loop failed, they are all written to stderr and the loop's error propagates."""
        finalizers = [getattr(entry.extension, 'finalize', None) for _, entry in extensions]
        errors = []
        for finalize in [f for f in finalizers if f] + [self.updater.finalize]:
            try:
                finalize()
            except Exception as error:
                errors.append(error)
        for error in errors if loop_failed else errors[1:]:
            sys.stderr.write(f'Exception in finalize: {error}\n')
            traceback.print_exception(error)
        if errors and not loop_failed:
            raise errors[0]

    def serialize(self, serializer) -> None:
        """Saves or loads the updater (``updater/``), the stop trigger (``stop_trigger/``),
        each extension (``extensions/<name>/``) and its trigger (``extension_triggers/<name>/``)
        and the elapsed time (``_snapshot_elapsed_time``), under Chainer's keys."""
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        extensions = serializer['extensions']
        triggers = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(extensions[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(triggers[name])
        if isinstance(serializer, Serializer):
            serializer('_snapshot_elapsed_time', self.elapsed_time)
        else:
            self._snapshot_elapsed_time = float(serializer('_snapshot_elapsed_time', 0.0))
