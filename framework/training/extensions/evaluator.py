"""Evaluator: evaluates the models on a validation set and reports the means."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable

from framework import backend
from framework import reporter as reporter_module
from framework.config import no_backprop_mode, using_config
from framework.dataset.convert import concat_examples
from framework.dataset.iterator import Iterator
from framework.links.link import Link
from framework.training import extension
from framework.training._convert import apply_to, call_converter
from framework.training.extensions import _console


class Evaluator(extension.Extension):
    """Evaluates the target links on a validation set, once per epoch by default.

    Each call resets the ``'main'`` iterator (it must not repeat), runs the evaluation
    function on each converted batch with ``config.train`` False and without recording the
    graph (:func:`~framework.no_backprop_mode`), averages what it reports over the batches
    (:class:`~framework.reporter.DictSummary`) and reports the means to the trainer, the keys
    prefixed by the extension's name: ``'validation/main/loss'``.

    Override :meth:`evaluate` to change the loop, or pass ``eval_func``.

    Args:
        iterator: the iterator of the validation set, or a dict of iterators (``'main'``).
        target (Link or dict): the link to evaluate, or a dict of links (``'main'``); they
            are the observers of the evaluation's reporter.
        converter (callable): turns a batch into arrays (``concat_examples``).
        device: where the arrays are sent (see :func:`~framework.backend.get_device`).
        eval_hook (callable): called with the evaluator at the start of each evaluation.
        eval_func (callable): called with the arrays of each batch; the ``'main'`` target
            when None.
        progress_bar (bool): whether to show the progress of each evaluation (on stdout).

    Attributes:
        converter, device, eval_hook, eval_func: as given.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    def __init__(self, iterator, target, converter: Callable = concat_examples, device=None,
                 eval_hook: Callable | None = None, eval_func: Callable | None = None, *,
                 progress_bar: bool = False):
        if device is not None:
            device = backend.get_device(device)
        if isinstance(iterator, Iterator) or not isinstance(iterator, dict):
            iterator = {'main': iterator}
        self._iterators = iterator
        if isinstance(target, Link):
            target = {'main': target}
        self._targets = target
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar
        for key, it in iterator.items():
            if getattr(it, 'repeat', False):
                warnings.warn(f"Evaluator: the iterator {key!r} repeats (repeat=True), so the "
                              'evaluation, which runs until the iterator stops, may never end; '
                              'make the iterator with repeat=False', stacklevel=2)

    def get_iterator(self, name: str):
        """The iterator registered as ``name``."""
        return self._iterators[name]

    def get_all_iterators(self) -> dict:
        """A dict of every iterator."""
        return dict(self._iterators)

    def get_target(self, name: str) -> Link:
        """The target link registered as ``name``."""
        return self._targets[name]

    def get_all_targets(self) -> dict:
        """A dict of every target link."""
        return dict(self._targets)

    def __call__(self, trainer=None) -> dict:
        """Evaluates and reports the result to the current reporter (if any).

        It can be called without a trainer, e.g. after the training.

        Returns:
            dict: the means of the values reported by the evaluation function, keyed
            ``'<name>/<target>/<key>'``.
        """
        reporter = reporter_module.Reporter()
        prefix = self.name + '/' if self.name is not None else ''
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name, target.namedlinks(skipself=True))
        with reporter, using_config('train', False):
            result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self) -> dict:
        """Runs the evaluation loop over the ``'main'`` iterator.

        Returns:
            dict: the mean of each value reported by the evaluation function.
        """
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn('Evaluator: the iterator has no reset method, so it is copied; '
                          'implement reset', DeprecationWarning, stacklevel=2)
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        progress = _IteratorProgress(it) if self._progress_bar else None
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = call_converter(self.converter, batch, self.device)
                with no_backprop_mode():
                    apply_to(eval_func, in_arrays)
            summary.add(observation)
            if progress is not None:
                progress.update()
        if progress is not None:
            progress.close()
        return summary.compute_mean()

    def finalize(self) -> None:
        """Finalizes every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()


class _IteratorProgress(_console.ProgressDisplay):
    """The progress of one pass over a (non-repeating) iterator, counted in examples (the
    iterator's ``current_position``)."""

    def __init__(self, iterator):
        if not (hasattr(iterator, 'current_position') and hasattr(iterator, 'epoch_detail')):
            raise TypeError('Evaluator: progress_bar needs an iterator with current_position '
                            'and epoch_detail')
        super().__init__()
        self._iterator = iterator

    def _state(self):
        position = self._iterator.current_position
        rate = self._iterator.epoch_detail
        speed_t, speed_e = self.update_speed(position, rate)
        size = len(getattr(self._iterator, 'dataset', ())) or None
        count = f'{position:10} / {size} examples' if size else f'{position:10} examples'
        return rate, count, speed_t, _console.seconds_left(1.0 - rate, speed_e)

    def get_lines(self):
        rate, count, speed, left = self._state()
        return [f'validation {_console.bar(min(rate, 1.0), self._bar_length)} {rate:6.2%}\n',
                count + '\n', _console.speed_line(speed, left, 'examples')]

    def get_plain_line(self):
        rate, count, speed, left = self._state()
        return (f'validation {rate:.2%}, {count.strip()}, {speed:.5g} examples/sec, '
                f'estimated time to finish {_console.format_duration(left)}')
