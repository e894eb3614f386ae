"""LogReport: averages the observations over intervals and writes them to a JSON log."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterable

from framework import reporter
from framework.serializers._atomic import atomic_write
from framework.serializers.serializer import Serializer
from framework.training import extension
from framework.training.extensions._summary import host_means, observed
from framework.training.trigger import get_trigger


class LogReport(extension.Extension):
    """Accumulates the observations and, at each interval, appends their means to a log.

    Called at every iteration (its own trigger), it adds the observation to a
    :class:`~framework.reporter.DictSummary`; when ``trigger`` fires, it appends the means,
    with ``epoch``, ``iteration`` and ``elapsed_time``, to :attr:`log`, writes the whole log to
    ``<out>/<filename>`` as a JSON list (Chainer's format, indent 4), and starts a new summary.
    The file is replaced atomically: a reader (or a crash) never sees a half-written log.

    Args:
        keys (iterable of str): the keys to accumulate; all when None.
        trigger: when to emit an entry (``(1, 'epoch')``).
        postprocess (callable): called with each entry (a dict) before it is appended; it may
            change it.
        filename (str): the name of the log file in the output directory; a format string
            filled with the entry (``'log_{iteration}'``); None writes no file.
        log_name (str): Chainer's old name of ``filename``.
    """

    def __init__(self, keys: Iterable[str] | None = None, trigger=(1, 'epoch'),
                 postprocess: Callable | None = None, filename: str | None = None, *,
                 log_name: str | None = 'log'):
        self._keys = keys
        self._trigger = get_trigger(trigger)
        self._postprocess = postprocess
        self._log: list[dict] = []
        self._log_name = log_name if filename is None else filename
        self._summary = reporter.DictSummary()

    def __call__(self, trainer) -> None:
        self._summary.add(observed(trainer.observation, self._keys))
        if not self._trigger(trainer):
            return
        entry = host_means(self._summary)
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            path = os.path.join(trainer.out, self._log_name.format(**entry))
            with atomic_write(path) as f:
                f.write(json.dumps(self._log, indent=4).encode())
        self._summary = reporter.DictSummary()

    @property
    def log(self) -> list[dict]:
        """The entries emitted so far."""
        return self._log

    def serialize(self, serializer) -> None:
        """Saves or loads the trigger (``_trigger/``), the running summary (``_summary/``) and
        the log as JSON (``_log``)."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('LogReport: the statistics are not saved', stacklevel=2)
        if isinstance(serializer, Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer('_log', '')))

